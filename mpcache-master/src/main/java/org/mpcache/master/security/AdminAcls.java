package org.mpcache.master.security;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.mpcache.master.MasterConfigKeys;

/**
 * Who administers mpCache and who may read what only administrators read, as
 * {@link AccessControlList}s built from {@value MasterConfigKeys#ADMIN_ACL_KEY} and
 * {@value MasterConfigKeys#ADMIN_READ_ACL_KEY}. A blank admin ACL stands for the user the master
 * runs as and the HDFS superuser group, the NameNode's own notion of who administers HDFS; a blank
 * read ACL adds nobody to the admins.
 *
 * <p>Immutable and thread-safe.
 */
public final class AdminAcls {
  private final AccessControlList admins;
  private final AccessControlList readers;

  private AdminAcls(AccessControlList admins, AccessControlList readers) {
    this.admins = admins;
    this.readers = readers;
  }

  /**
   * The ACLs {@code conf} sets, the blank admin ACL resolved against the master's login user.
   *
   * @throws IOException if the login user cannot be determined
   */
  public static AdminAcls from(Configuration conf) throws IOException {
    String admin = conf.getTrimmed(MasterConfigKeys.ADMIN_ACL_KEY,
        MasterConfigKeys.ADMIN_ACL_DEFAULT);
    if (admin.isEmpty()) {
      admin = UserGroupInformation.getLoginUser().getShortUserName() + " "
          + conf.getTrimmed(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
              DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
    }
    String read = conf.getTrimmed(MasterConfigKeys.ADMIN_READ_ACL_KEY,
        MasterConfigKeys.ADMIN_READ_ACL_DEFAULT);
    // " " is AccessControlList's spelling of "nobody"; "" would be too, but say it plainly.
    return new AdminAcls(new AccessControlList(admin),
        new AccessControlList(read.isEmpty() ? " " : read));
  }

  /** The administrators' ACL. */
  public AccessControlList admins() {
    return admins;
  }

  /**
   * Whether {@code user} may read what only administrators read: an admin, or a user the read
   * ACL admits. An unauthenticated caller ({@code null}) only when the read ACL is {@code *}.
   */
  public boolean mayRead(String user) {
    if (user == null) {
      return readers.isAllAllowed();
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    return admins.isUserAllowed(ugi) || readers.isUserAllowed(ugi);
  }
}
