package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The tarball as an operator uses it: unpacked, its {@code bin/mpcache} starts a master and a slave
 * as daemons against an HDFS (a MiniDFSCluster in this JVM, whose configuration is written to the
 * daemons' conf directory and whose jars are their Hadoop classpath, through
 * {@code MPCACHE_HADOOP_CLASSPATH}), {@code mpcache admin report -json} shows the slave live, and
 * {@code --daemon stop} ends both processes and removes their pid files. HDFS issues block
 * tokens and only the conf directory's {@code hdfs-site.xml} says so: the slave refuses a read
 * without a token.
 *
 * <p>It runs in the integration-test phase, after the tarball is packaged; that execution sets
 * {@code dist.tarball} (the unit-test phase, which has no tarball yet, skips it).
 */
@EnabledIfSystemProperty(named = "dist.tarball", matches = ".+")
class DistributionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path work;
  private static Path home;
  private static Path pidDir;
  private static MiniDFSCluster dfs;
  private static Map<String, String> env;
  private static int slavePort;
  private static int httpPort;

  @BeforeAll
  static void unpackAndConfigure() throws Exception {
    Path tarball = Paths.get(System.getProperty("dist.tarball"));
    assertTrue(Files.isRegularFile(tarball), "no tarball at " + tarball + ": run mvn package");
    work = Paths.get("target", "dist-test").toAbsolutePath();
    FileUtil.fullyDelete(work.toFile());
    Files.createDirectories(work);
    assertEquals(0, new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", work.toString())
        .inheritIO().start().waitFor(), "tar failed");
    home = work.resolve(System.getProperty("dist.name"));
    for (String d : new String[] {"bin/mpcache", "conf/mpcache-site.xml", "conf/log4j.properties",
        "conf/mpcache-policy.xml", "docs/install.md"}) {
      assertTrue(Files.exists(home.resolve(d)), "the tarball lacks " + d);
    }
    assertTrue(Files.isExecutable(home.resolve("bin/mpcache")));
    try (var jars = Files.list(home.resolve("lib"))) {
      List<String> names = jars.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("mpcache-master-")), names.toString());
      assertTrue(names.stream().noneMatch(n -> n.startsWith("hadoop-")),
          "lib/ must not carry Hadoop's jars: " + names);
    }

    Configuration conf = new Configuration();
    // HDFS issues block tokens; the daemons learn it only from hdfs-site.xml, as on a real node.
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    dfs = new MiniDFSCluster.Builder(conf, work.resolve("dfs").toFile()).numDataNodes(1).build();
    dfs.waitActive();

    int rpcPort = freePort();
    httpPort = freePort();
    slavePort = freePort();
    Path confDir = Files.createDirectories(work.resolve("conf"));
    Files.copy(home.resolve("conf/log4j.properties"), confDir.resolve("log4j.properties"));
    writeSite(confDir.resolve("core-site.xml"), Map.of("fs.defaultFS", dfs.getURI().toString()));
    writeSite(confDir.resolve("hdfs-site.xml"),
        Map.of(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, "true"));
    Map<String, String> site = new HashMap<>();
    site.put("mpcache.master.rpc-address", "127.0.0.1:" + rpcPort);
    site.put("mpcache.master.http-address", "127.0.0.1:" + httpPort);
    site.put("mpcache.master.heartbeat.interval.ms", "300");
    site.put("mpcache.master.state.dir", work.resolve("master-state").toString());
    site.put("mpcache.slave.rpc-address", "127.0.0.1:" + slavePort);
    site.put("mpcache.slave.hostname", "127.0.0.1");
    site.put("mpcache.slave.datanode.address",
        "127.0.0.1:" + dfs.getDataNodes().get(0).getXferAddress().getPort());
    site.put("mpcache.slave.cache.dirs", work.resolve("ssd").toString());
    site.put("mpcache.slave.cache.capacity", "64m");
    site.put("mpcache.slave.localized.bind-address", "127.0.0.1:0");
    writeSite(confDir.resolve("mpcache-site.xml"), site);

    pidDir = work.resolve("pids");
    env = new HashMap<>();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("MPCACHE_CONF_DIR", confDir.toString());
    env.put("MPCACHE_LOG_DIR", work.resolve("logs").toString());
    env.put("MPCACHE_PID_DIR", pidDir.toString());
    env.put("MPCACHE_IDENT_STRING", "disttest");
    env.put("MPCACHE_HEAPSIZE", "256");
    env.put("MPCACHE_HADOOP_CLASSPATH", hadoopClasspath());
  }

  /** The test's own classpath less the project's modules: Hadoop's jars, as `hadoop classpath`. */
  private static String hadoopClasspath() {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String root = Paths.get(System.getProperty("project.root")).toAbsolutePath().normalize()
        .toString();
    List<String> keep = new ArrayList<>();
    for (String e : cp.split(File.pathSeparator)) {
      if (!e.isEmpty() && !Paths.get(e).toAbsolutePath().normalize().startsWith(root)) {
        keep.add(e);
      }
    }
    assertTrue(keep.stream().anyMatch(e -> e.contains("hadoop-common")), cp);
    return String.join(File.pathSeparator, keep);
  }

  @AfterAll
  static void cleanUp() throws Exception {
    // Never leave a daemon behind, whatever failed.
    if (pidDir != null && Files.isDirectory(pidDir)) {
      try (var pids = Files.list(pidDir)) {
        for (Path p : pids.toList()) {
          ProcessHandle.of(Long.parseLong(Files.readString(p).trim()))
              .ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void tarball_startsReportsAndStopsMasterAndSlave() throws Exception {
    assertEquals(3, run("--daemon", "status", "master").exit(), "nothing runs yet");
    LauncherRun version = run("version");
    assertEquals(0, version.exit(), version.output());
    assertTrue(version.stdout().contains("mpCache " + System.getProperty("dist.name")
        .substring("mpcache-".length())), version.output());
    assertTrue(version.stdout().contains("Hadoop 3."), version.output());

    LauncherRun master = run("--daemon", "start", "master");
    assertEquals(0, master.exit(), master.output());
    LauncherRun again = run("--daemon", "start", "master");
    assertEquals(1, again.exit(), "a second start is refused");
    assertTrue(again.output().contains("is running as process"), again.output());
    LauncherRun slave = run("--daemon", "start", "slave");
    assertEquals(0, slave.exit(), slave.output());
    long masterPid = pid("master");
    long slavePid = pid("slave");
    assertEquals(0, run("--daemon", "status", "slave").exit());

    String slaveId = "127.0.0.1:" + slavePort;
    JsonNode report = awaitReport(r -> slaveIsLive(r, slaveId));
    assertTrue(slaveIsLive(report, slaveId), report.toString());
    JsonNode status = statusJson();
    assertEquals(slaveId, status.at("/report/slaves/0/slave/slaveId").asText(), status.toString());
    assertReadWithoutTokenRefused();

    LauncherRun stopSlave = run("--daemon", "stop", "slave");
    assertEquals(0, stopSlave.exit(), stopSlave.output());
    assertEnded(slavePid, "slave");
    // The slave told the master it left: it is gone at once, not after the 30 s expiry.
    assertEquals(0, statusJson().at("/report/slaves").size(), statusJson().toString());
    assertEquals(3, run("--daemon", "status", "slave").exit());

    LauncherRun stopMaster = run("--daemon", "stop", "master");
    assertEquals(0, stopMaster.exit(), stopMaster.output());
    assertEnded(masterPid, "master");
    String log = Files.readString(work.resolve("logs").resolve(
        "mpcache-disttest-slave-" + hostname() + ".log"));
    assertTrue(log.contains("SHUTDOWN_MSG"), "the slave shut down through its hook:\n" + log);
    assertTrue(log.contains("Unregistered"), log);
  }

  /**
   * A read of a block with no token: a slave that checks tokens refuses it with an
   * AccessControlException before looking at its cache; one that does not would answer that the
   * block is not cached.
   */
  private void assertReadWithoutTokenRefused() throws Exception {
    ClientSlaveProtocolPB slave = RpcSupport.proxy(ClientSlaveProtocolPB.class,
        new InetSocketAddress("127.0.0.1", slavePort), new Configuration(), 10_000);
    try {
      ReadRequestProto read = ReadRequestProto.newBuilder().setBlock(ProtoConverters.toProto(
          new BlockKey(dfs.getNamesystem().getBlockPoolId(), 1_073_741_825L, 1001L)))
          .setOffset(0).setLength(100).build();
      RemoteException e = assertThrows(RemoteException.class,
          () -> RpcSupport.call(() -> slave.read(null, read)));
      assertTrue(e.getClassName().endsWith("AccessControlException"),
          e.getClassName() + ": " + e.getMessage());
    } finally {
      RpcSupport.close(slave);
    }
  }

  private static boolean slaveIsLive(JsonNode report, String slaveId) {
    for (JsonNode s : report.path("slaves")) {
      if (slaveId.equals(s.path("slave").path("slaveId").asText())
          && s.path("live").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }

  private JsonNode awaitReport(Predicate<JsonNode> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    LauncherRun last = null;
    while (System.nanoTime() < deadline) {
      last = run("admin", "report", "-json");
      if (last.exit() == 0) {
        JsonNode r = JSON.readTree(last.stdout());
        if (done.test(r)) {
          return r;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("mpcache admin report -json never showed the slave live; last: "
        + (last == null ? "none" : last.exit() + "\n" + last.output()));
  }

  private static JsonNode statusJson() throws IOException {
    try (InputStream in = new URL("http://127.0.0.1:" + httpPort + "/status.json").openStream()) {
      return JSON.readTree(in);
    }
  }

  private long pid(String daemon) throws IOException {
    Path f = pidDir.resolve("mpcache-disttest-" + daemon + ".pid");
    assertTrue(Files.exists(f), "no pid file " + f);
    long pid = Long.parseLong(Files.readString(f).trim());
    assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        daemon + " process " + pid + " is not running");
    return pid;
  }

  private void assertEnded(long pid, String daemon) {
    assertFalse(Files.exists(pidDir.resolve("mpcache-disttest-" + daemon + ".pid")),
        "the " + daemon + " pid file is left behind");
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        daemon + " process " + pid + " still runs");
  }

  private static String hostname() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("hostname").start();
    String h = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    p.waitFor();
    return h;
  }

  private static LauncherRun run(String... args) throws IOException, InterruptedException {
    return LauncherRun.run(home, env, work, args);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void writeSite(Path file, Map<String, String> props) {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    props.forEach((k, v) -> b.append("  <property><name>").append(k).append("</name><value>")
        .append(v).append("</value></property>\n"));
    try {
      Files.writeString(file, b.append("</configuration>\n").toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
