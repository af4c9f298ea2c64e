package org.mpcache.master.tools;

/** Bad arguments to an admin subcommand; the message names what was wrong. */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
