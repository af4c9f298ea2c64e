package org.mpcache.common.protocolPB;

import java.io.IOException;

/**
 * A daemon understood a request and refuses it for a reason the caller can act on (an unknown
 * path or slave, an invalid configuration): the message says which and what to do. Servers log
 * it on one line, without a stack trace; retrying the same request will not help.
 */
public class RequestRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  public RequestRefusedException(String message) {
    super(message);
  }

  public RequestRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
