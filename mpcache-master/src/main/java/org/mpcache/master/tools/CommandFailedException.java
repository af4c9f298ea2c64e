package org.mpcache.master.tools;

import java.io.IOException;

/**
 * The master answered, but the command's goal was not reached (e.g. a prefetch that did not
 * complete in the time given); the message says what happened and what to try. Exit code 2.
 */
final class CommandFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  CommandFailedException(String message) {
    super(message);
  }
}
