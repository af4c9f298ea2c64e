package org.mpcache.master.security;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.mpcache.master.MasterConfigKeys;

/**
 * Who administers mpCache and who may read what only administrators read. Per admin operation
 * rather than per protocol (service ACLs admit a caller to the whole admin protocol):
 * {@code mpcache.admin.acl} for the operations that change the cache ({@code evict},
 * {@code prefetch}, {@code decommission}, {@code refresh}) and the web UI's admin pages, and, for
 * the read-only operations ({@code report}, {@code datasets}, {@code explain}) and the web UI's
 * dataset paths, which show every user's input, that ACL or {@code mpcache.admin.read.acl}. As HDFS's superuser checks, they
 * apply whatever {@code hadoop.security.authorization} says: an empty {@code mpcache.admin.acl}
 * means the master's own user and the members of {@code dfs.permissions.superusergroup}, the
 * users HDFS itself treats as superusers.
 *
 * <p>Thread-safe: {@link #reload} replaces both ACLs at once; a check reads one consistent pair.
 */
public final class AdminAcls {

  /** Both ACLs as one value, so a check never sees one old and one new. */
  private static final class Pair {
    final AccessControlList operator;
    final AccessControlList read;

    Pair(AccessControlList operator, AccessControlList read) {
      this.operator = operator;
      this.read = read;
    }
  }

  private final String daemonUser;
  private volatile Pair acls;

  /**
   * @param daemonUser the short name of the user the master runs as (logged in)
   */
  public AdminAcls(String daemonUser, Configuration conf) {
    this.daemonUser = daemonUser;
    reload(conf);
  }

  /**
   * Reads both ACLs from {@code conf} (at start, and on {@code mpcache admin refresh}). Values
   * are not trimmed, as Hadoop reads its ACL keys: a leading space means "no users, these
   * groups".
   */
  public void reload(Configuration conf) {
    String operator = conf.get(MasterConfigKeys.ADMIN_ACL_KEY,
        MasterConfigKeys.ADMIN_ACL_DEFAULT);
    if (operator.trim().isEmpty()) {
      operator = daemonUser + " " + conf.getTrimmed(
          DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
          DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
    }
    acls = new Pair(new AccessControlList(operator), new AccessControlList(
        conf.get(MasterConfigKeys.ADMIN_READ_ACL_KEY,
            MasterConfigKeys.ADMIN_READ_ACL_DEFAULT)));
  }

  /** The operators' ACL in force, as "users groups" (the default spelled out). */
  public String operatorAcl() {
    return describe(acls.operator);
  }

  /** The read-only operations' additional ACL in force, as "users groups". */
  public String readAcl() {
    return describe(acls.read);
  }

  /**
   * Checks that {@code user} may call {@code operation}, which changes the cache.
   *
   * @throws AccessControlException naming the user, the ACL key and its value
   */
  public void checkOperator(UserGroupInformation user, String operation)
      throws AccessControlException {
    Pair p = acls;
    if (!p.operator.isUserAllowed(user)) {
      throw new AccessControlException("User " + user.getShortUserName() + " is not in "
          + MasterConfigKeys.ADMIN_ACL_KEY + " (" + describe(p.operator) + "), which "
          + operation + " needs.");
    }
  }

  /**
   * Checks that {@code user} may call the read-only {@code operation}.
   *
   * @throws AccessControlException naming the user, both ACL keys and their values
   */
  public void checkRead(UserGroupInformation user, String operation)
      throws AccessControlException {
    Pair p = acls;
    if (!p.read.isUserAllowed(user) && !p.operator.isUserAllowed(user)) {
      throw new AccessControlException("User " + user.getShortUserName() + " is not in "
          + MasterConfigKeys.ADMIN_READ_ACL_KEY + " (" + describe(p.read) + ") nor in "
          + MasterConfigKeys.ADMIN_ACL_KEY + " (" + describe(p.operator) + "), one of which "
          + operation + " needs.");
    }
  }

  /** The administrators' ACL in force. */
  public AccessControlList admins() {
    return acls.operator;
  }

  /**
   * Whether {@code user} may read what only administrators read: an admin, or a user the read
   * ACL admits. An unauthenticated caller ({@code null}) only when the read ACL is {@code *}.
   */
  public boolean mayRead(String user) {
    Pair p = acls;
    if (user == null) {
      return p.read.isAllAllowed();
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    return p.operator.isUserAllowed(ugi) || p.read.isUserAllowed(ugi);
  }

  /** The ACL in its own syntax; a leading space (groups only) is kept. */
  private static String describe(AccessControlList acl) {
    String s = acl.getAclString().stripTrailing();
    return s.isEmpty() ? "empty" : s;
  }
}
