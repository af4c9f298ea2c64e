package org.mpcache.secure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.admin.AdminCliRun;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * Who may do what with {@code mpcache admin}, on a running mini cluster (one DataNode and slave),
 * each command run through the CLI's entry point as a given user: by default only the master's
 * user and the HDFS superuser group may evict, decommission, refresh, prefetch and read the
 * status; {@code mpcache.admin.read.acl} opens the read-only commands; {@code prefetch} lists
 * and reads the path as its caller, so an administrator who is no HDFS superuser warms only what
 * HDFS lets them read; and a prefetch beyond the file or queue bound is refused whole. The
 * cluster runs as the user running the test, who is also the NameNode's superuser, with the
 * NameNode letting that user act for others (the proxy-user setup docs/security.md gives).
 */
class AdminAclTest {
  private static final int BLOCK = 1 << 20;
  private static final int MAX_FILES = 3;
  private static final int MAX_QUEUED_BLOCKS = 4;
  private static final File BASE = new File("target/secure/admin-acl");
  /** Re-read by refresh: the two ACLs. */
  private static final File SITE = new File(BASE, "acl-site.xml");
  private static MiniMpCacheCluster cluster;
  private static UserGroupInformation me;
  /** In no group the ACLs name. */
  private static UserGroupInformation bob;
  /** In the HDFS superuser group. */
  private static UserGroupInformation carol;
  /** In {@code operators}, a group that is no HDFS superuser. */
  private static UserGroupInformation dave;

  @BeforeAll
  static void start() throws IOException {
    me = UserGroupInformation.getCurrentUser();
    // Groups the master and the NameNode, in this JVM, resolve these users to.
    bob = UserGroupInformation.createUserForTesting("bob", new String[] {"users"});
    carol = UserGroupInformation.createUserForTesting("carol", new String[] {"supergroup"});
    dave = UserGroupInformation.createUserForTesting("dave", new String[] {"operators"});
    Files.createDirectories(BASE.toPath());
    writeSite("", "");
    String self = me.getShortUserName();
    cluster = new MiniMpCacheCluster.Builder(BASE).dataNodes(1).blockSize(BLOCK)
        .slaveCapacity(16L * BLOCK).addResource(SITE)
        .set("hadoop.proxyuser." + self + ".hosts", "*")
        .set("hadoop.proxyuser." + self + ".groups", "*")
        .set(MasterConfigKeys.PREFETCH_MAX_FILES_KEY, Integer.toString(MAX_FILES))
        .set(MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY, Integer.toString(MAX_QUEUED_BLOCKS))
        .build();
    write(cluster, new Path("/shared/f"), data(1, BLOCK));
    write(cluster, new Path("/ops/f"), data(2, 2 * BLOCK));
    write(cluster, new Path("/team/f"), data(3, 2 * BLOCK));
    write(cluster, new Path("/oversized/f"), data(4, (MAX_QUEUED_BLOCKS + 2) * BLOCK));
    // Empty, so listed first (HDFS lists in name order) they pass the file bound before any
    // block reaches the queue bound.
    for (int i = 0; i <= MAX_FILES; i++) {
      write(cluster, new Path("/many/" + i), new byte[0]);
    }
    Path secret = new Path("/private");
    write(cluster, new Path(secret, "f"), data(5, BLOCK));
    FileSystem fs = cluster.plainFileSystem();
    fs.setOwner(secret, "erin", "erin");
    fs.setPermission(secret, new FsPermission((short) 0700));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The ACL keys refresh reads; an empty value leaves a key at its default. */
  private static void writeSite(String adminAcl, String readAcl) throws IOException {
    Files.writeString(SITE.toPath(), "<configuration>\n"
        + "<property><name>" + MasterConfigKeys.ADMIN_ACL_KEY + "</name><value>" + adminAcl
        + "</value></property>\n"
        + "<property><name>" + MasterConfigKeys.ADMIN_READ_ACL_KEY + "</name><value>"
        + readAcl + "</value></property>\n</configuration>\n");
  }

  private static AdminCliRun run(UserGroupInformation user, String... args) throws Exception {
    return AdminCliRun.runAs(user, cluster.conf(), args);
  }

  private static AdminCliRun ok(UserGroupInformation user, String... args) throws Exception {
    AdminCliRun r = run(user, args);
    assertEquals(0, r.code, () -> user.getShortUserName() + ": " + String.join(" ", args) + "\n"
        + r);
    return r;
  }

  private static void refused(AdminCliRun r, String... expected) {
    assertEquals(2, r.code, r::toString);
    assertThat(r.err).contains(expected);
  }

  /** Rewrites the ACLs and refreshes as the master's user. */
  private static void setAcls(String adminAcl, String readAcl) throws Exception {
    writeSite(adminAcl, readAcl);
    ok(me, "refresh");
  }

  /** Prefetch commands the master has queued since it started. */
  private static long prefetchQueued() {
    return MetricsAsserts.getLongCounter("PrefetchBlocksQueued",
        MetricsAsserts.getMetrics(cluster.master().getMetrics()));
  }

  private static String slaveId() {
    return cluster.slaves().get(0).info().getSlaveId();
  }

  @Test
  void operatorCommands_byANonAdmin_refusedNamingTheAclAndChangingNothing() throws Exception {
    long queued = prefetchQueued();
    String acl = "User bob is not in " + MasterConfigKeys.ADMIN_ACL_KEY + " ("
        + me.getShortUserName() + " supergroup)";
    refused(run(bob, "evict", "/shared"), acl, "evict");
    refused(run(bob, "decommission", slaveId()), acl, "decommission");
    refused(run(bob, "refresh"), acl, "refresh");
    refused(run(bob, "prefetch", "/shared"), acl, "prefetch");
    refused(run(bob, "pin", "/shared"), acl, "pin");
    refused(run(bob, "ttl", "/shared", "1h"), acl, "ttl");
    refused(run(bob, "quota", "-dir", "/shared", "1g"), acl, "quota");
    assertFalse(cluster.master().getSlaveRegistry().isDecommissioning(slaveId()));
    assertEquals(queued, prefetchQueued());
    String controls = ok(me, "report", "-json").json().path("controls").toString();
    assertThat(controls).doesNotContain("/shared");
  }

  @Test
  void readCommands_byANonAdmin_refusedByDefaultAndAllowedOnceTheReadAclIsOpen()
      throws Exception {
    String[][] reads = {{"report"}, {"datasets"}, {"explain", "/shared"}};
    for (String[] c : reads) {
      refused(run(bob, c), "User bob is not in " + MasterConfigKeys.ADMIN_READ_ACL_KEY,
          MasterConfigKeys.ADMIN_ACL_KEY + " (" + me.getShortUserName() + " supergroup)");
    }
    setAcls("", "*");
    try {
      for (String[] c : reads) {
        ok(bob, c);
      }
      refused(run(bob, "evict", "/shared"), MasterConfigKeys.ADMIN_ACL_KEY);
    } finally {
      setAcls("", "");
    }
    refused(run(bob, "report"), MasterConfigKeys.ADMIN_READ_ACL_KEY);
  }

  @Test
  void operatorCommands_byTheMastersUserAndTheSuperuserGroup_succeed() throws Exception {
    assertThat(ok(me, "prefetch", "/ops", "-wait", "60").out).contains("2 of 2 block(s) cached");
    assertThat(ok(carol, "evict", "/ops").out).contains("2 cached block replica(s) ordered out");
    assertThat(ok(carol, "decommission", slaveId()).out).contains(slaveId());
    assertThat(ok(me, "decommission", slaveId(), "-cancel").out).contains("is in service");
    ok(carol, "refresh");
    ok(carol, "report");
    ok(me, "datasets");
  }

  @Test
  void prefetch_runsAsTheCaller_aPathTheCallerCannotReadIsRefusedAndNothingQueued()
      throws Exception {
    setAcls(me.getShortUserName() + " operators", "");
    try {
      long queued = prefetchQueued();
      refused(run(dave, "prefetch", "/private"), "/private", "Permission denied", "user=dave");
      assertEquals(queued, prefetchQueued());
      // The same path is the master's user's to warm: HDFS refused dave, not the master. Both
      // wait for their blocks, so that no prefetch is left queued for the other tests' bounds.
      assertEquals(1, ok(me, "prefetch", "/private", "-wait", "60", "-json").json()
          .get("blocks").asInt());
      assertEquals(2, ok(dave, "prefetch", "/team", "-wait", "60", "-json").json()
          .get("blocks").asInt());
    } finally {
      setAcls("", "");
    }
  }

  @Test
  void prefetch_withoutTheNameNodesProxyUserSetting_refusedNamingTheImpersonation()
      throws Exception {
    setAcls(me.getShortUserName() + " operators", "");
    // The NameNode of this JVM forgets that the master's user may act for others.
    ProxyUsers.refreshSuperUserGroupsConfiguration(new Configuration(false));
    try {
      refused(run(dave, "prefetch", "/team"), "not allowed to impersonate dave",
          "hadoop.proxyuser." + me.getShortUserName() + ".hosts");
    } finally {
      ProxyUsers.refreshSuperUserGroupsConfiguration(cluster.dfs().getConfiguration(0));
      setAcls("", "");
    }
  }

  @Test
  void prefetch_beyondTheFileOrQueueBound_refusedWholeNamingTheKey() throws Exception {
    long queued = prefetchQueued();
    refused(run(me, "prefetch", "/"), MasterConfigKeys.PREFETCH_MAX_FILES_KEY,
        "more than " + MAX_FILES + " files");
    refused(run(me, "prefetch", "/oversized"), MasterConfigKeys.PREFETCH_QUEUE_MAX_BLOCKS_KEY,
        "(" + MAX_QUEUED_BLOCKS + ";");
    assertEquals(queued, prefetchQueued());
  }
}
