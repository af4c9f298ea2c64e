package org.mpcache.common.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/** When a daemon logs in from its keytab, and what it says when it cannot. */
class SecureLoginTest {
  private static final String KEYTAB = "mpcache.test.keytab.file";
  private static final String PRINCIPAL = "mpcache.test.kerberos.principal";

  @Test
  void login_withSimpleAuthentication_doesNothing() throws Exception {
    Configuration conf = new Configuration(false);
    SecureLogin.login(conf, KEYTAB, PRINCIPAL, "localhost");
    assertFalse(UserGroupInformation.isLoginKeytabBased());
  }

  @Test
  void login_withKerberosButNoKeytab_namesTheKey() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set(PRINCIPAL, "mpcache/_HOST@EXAMPLE.COM");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SecureLogin.login(conf, KEYTAB, PRINCIPAL, "localhost"));
    assertTrue(e.getMessage().startsWith(KEYTAB + " is not set"), e.getMessage());
  }

  @Test
  void login_withKerberosButNoPrincipal_namesTheKey() {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set(KEYTAB, "/etc/security/keytabs/mpcache.keytab");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SecureLogin.login(conf, KEYTAB, PRINCIPAL, "localhost"));
    assertTrue(e.getMessage().startsWith(PRINCIPAL + " is not set"), e.getMessage());
  }
}
