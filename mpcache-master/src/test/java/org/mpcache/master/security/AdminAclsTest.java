package org.mpcache.master.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.mpcache.master.MasterConfigKeys;

class AdminAclsTest {
  private static final UserGroupInformation DAEMON =
      UserGroupInformation.createUserForTesting("mpcache", new String[] {"hadoop"});
  private static final UserGroupInformation SUPER =
      UserGroupInformation.createUserForTesting("carol", new String[] {"supergroup"});
  private static final UserGroupInformation OPERATOR =
      UserGroupInformation.createUserForTesting("dave", new String[] {"operators"});
  private static final UserGroupInformation BOB =
      UserGroupInformation.createUserForTesting("bob", new String[] {"users"});

  private static AdminAcls acls(String operator, String read) {
    Configuration conf = new Configuration(false);
    conf.set(MasterConfigKeys.ADMIN_ACL_KEY, operator);
    conf.set(MasterConfigKeys.ADMIN_READ_ACL_KEY, read);
    return new AdminAcls("mpcache", conf);
  }

  @Test
  void checkOperator_defaultAcl_admitsTheDaemonUserAndTheSuperuserGroupOnly() {
    AdminAcls a = new AdminAcls("mpcache", new Configuration(false));
    assertDoesNotThrow(() -> a.checkOperator(DAEMON, "evict"));
    assertDoesNotThrow(() -> a.checkOperator(SUPER, "evict"));
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> a.checkOperator(BOB, "evict"));
    assertEquals("User bob is not in mpcache.admin.acl (mpcache supergroup), which evict needs.",
        e.getMessage());
    assertEquals("mpcache supergroup", a.operatorAcl());
  }

  @Test
  void checkOperator_defaultAcl_followsTheConfiguredSuperuserGroup() {
    Configuration conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY, "operators");
    AdminAcls a = new AdminAcls("mpcache", conf);
    assertDoesNotThrow(() -> a.checkOperator(OPERATOR, "refresh"));
    assertThrows(AccessControlException.class, () -> a.checkOperator(SUPER, "refresh"));
  }

  @Test
  void checkOperator_setAcl_replacesTheDefault() {
    AdminAcls a = acls("bob operators", "");
    assertDoesNotThrow(() -> a.checkOperator(BOB, "prefetch"));
    assertDoesNotThrow(() -> a.checkOperator(OPERATOR, "prefetch"));
    assertThrows(AccessControlException.class, () -> a.checkOperator(DAEMON, "prefetch"));
    assertThrows(AccessControlException.class, () -> a.checkOperator(SUPER, "prefetch"));
  }

  @Test
  void checkRead_emptyReadAcl_admitsOperatorsOnlyAndNamesBothKeys() {
    AdminAcls a = acls("", "");
    assertDoesNotThrow(() -> a.checkRead(SUPER, "datasets"));
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> a.checkRead(BOB, "datasets"));
    assertEquals("User bob is not in mpcache.admin.read.acl (empty) nor in mpcache.admin.acl "
        + "(mpcache supergroup), one of which datasets needs.", e.getMessage());
  }

  @Test
  void checkRead_readAcl_opensReadsButNotOperations() throws Exception {
    AdminAcls a = acls("", "*");
    a.checkRead(BOB, "report");
    assertThrows(AccessControlException.class, () -> a.checkOperator(BOB, "evict"));
    AdminAcls users = acls("", " users");
    users.checkRead(BOB, "explain");
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> users.checkRead(OPERATOR, "explain"));
    assertEquals("User dave is not in mpcache.admin.read.acl ( users) nor in mpcache.admin.acl "
        + "(mpcache supergroup), one of which explain needs.", e.getMessage());
  }

  @Test
  void reload_replacesBothAcls() throws Exception {
    AdminAcls a = acls("", "");
    Configuration conf = new Configuration(false);
    conf.set(MasterConfigKeys.ADMIN_ACL_KEY, "bob");
    conf.set(MasterConfigKeys.ADMIN_READ_ACL_KEY, "*");
    a.reload(conf);
    a.checkOperator(BOB, "evict");
    a.checkRead(OPERATOR, "report");
    assertThrows(AccessControlException.class, () -> a.checkOperator(DAEMON, "evict"));
    assertEquals("bob", a.operatorAcl());
    assertEquals("*", a.readAcl());
  }
}
