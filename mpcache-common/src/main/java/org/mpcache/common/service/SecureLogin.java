package org.mpcache.common.service;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * A daemon's Kerberos login at start, with Hadoop's conventions: when
 * {@code hadoop.security.authentication} is {@code kerberos}, the daemon logs in from its keytab
 * as its principal, {@code _HOST} in the principal standing for the daemon's host name
 * ({@link SecurityUtil#login(Configuration, String, String, String)}), as HDFS's daemons do.
 * Stateless; the login itself is process-wide, as in Hadoop.
 */
public final class SecureLogin {

  private SecureLogin() {
  }

  /**
   * Logs the process in from the keytab when {@code conf} asks for Kerberos; does nothing with
   * simple authentication.
   *
   * @param host the daemon's host name, which replaces {@code _HOST} in the principal
   * @throws IllegalArgumentException when the keytab or principal key is not set, naming it
   * @throws IOException when the login fails
   */
  public static void login(Configuration conf, String keytabKey, String principalKey, String host)
      throws IOException {
    if (SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.KERBEROS) {
      return;
    }
    for (String key : new String[] {keytabKey, principalKey}) {
      if (conf.getTrimmed(key, "").isEmpty()) {
        throw new IllegalArgumentException(key + " is not set, but hadoop.security.authentication"
            + " is kerberos: set " + keytabKey + " to the daemon's keytab and " + principalKey
            + " to its principal, e.g. mpcache/_HOST@EXAMPLE.COM");
      }
    }
    UserGroupInformation.setConfiguration(conf);
    SecurityUtil.login(conf, keytabKey, principalKey, host);
  }
}
