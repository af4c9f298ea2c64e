package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.puma.WordCount;

/**
 * docs/install.md followed literally on a pseudo-distributed cluster of separate processes. A
 * {@code $HADOOP_HOME}-like directory stands in for a Hadoop installation: {@code etc/hadoop} with
 * the site files, {@code share/hadoop/common/lib} with the test's Hadoop jars (links), and a
 * {@code bin/hadoop} whose {@code classpath} prints the two, as Hadoop's own does. From it a
 * NameNode (after {@code -format}), a DataNode, a ResourceManager and a NodeManager run as
 * separate JVMs from Hadoop's own main classes. Then the guide, section by section: the tarball
 * unpacked and linked (1), the launcher finds Hadoop through {@code $HADOOP_HOME/bin/hadoop
 * classpath} (2), {@code conf/mpcache-site.xml} (3), the client jar copied into
 * {@code share/hadoop/common/lib} (4), the three Hadoop site files (5), {@code bin/mpcache --daemon
 * start master|slave} (6), {@code admin report}, the web UI and {@code /status.json} (7). The
 * PUMA word count, submitted by a separate client process with the conf directory as its only
 * configuration, runs twice: the second run reads from the slave (the report's bytes from the
 * SSD). Then section 8: the properties removed from the site files, the NodeManager restarted, the
 * job run a third time with no new hits and the same output, the daemons stopped.
 *
 * <p>Every value below that the guide does not give is Hadoop's own pseudo-distributed setup
 * (ports, directories, memory) or a test speed-up (heartbeat interval), never an mpCache key the
 * guide leaves out. It runs in the integration-test phase, after the tarball is packaged
 * ({@code dist.tarball} set), and only with the {@code install-guide} profile; see
 * docs/install.md, "The guide, executed", for the command and its run time.
 */
@EnabledIfSystemProperty(named = "dist.tarball", matches = ".+")
class InstallGuideTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long BLOCK = 1024 * 1024;
  private static final long INPUT_BYTES = 3 * BLOCK;
  private static final String[] ADD_OPENS = {"java.io", "java.lang", "java.lang.reflect",
      "java.math", "java.net", "java.text", "java.util", "java.util.concurrent", "java.util.zip",
      "sun.security.util", "sun.security.x509"};

  private static Path work;
  private static Path hadoopHome;
  private static Path etcHadoop;
  private static Path hadoopLib;
  private static Path mpcacheHome;
  private static Path logs;
  private static Path ssd;
  private static Map<String, String> mpcacheEnv;
  private static final Map<String, Process> DAEMONS = new LinkedHashMap<>();
  private static final Map<String, Integer> PORTS = new LinkedHashMap<>();

  @BeforeAll
  static void layOut() throws Exception {
    work = Paths.get("target", "install-guide").toAbsolutePath();
    FileUtil.fullyDelete(work.toFile());
    logs = Files.createDirectories(work.resolve("logs"));
    ssd = Files.createDirectories(work.resolve("ssd1/yarn-local"));
    Files.createDirectories(work.resolve("hdd1/yarn-local"));
    for (String p : new String[] {"nn.rpc", "nn.http", "dn.xfer", "dn.http", "dn.ipc", "rm",
        "rm.scheduler", "rm.tracker", "rm.admin", "rm.web", "nm", "nm.localizer", "nm.web",
        "shuffle", "master.rpc", "master.http", "slave.rpc", "slave.localized"}) {
      PORTS.put(p, freePort());
    }
    hadoopHome = work.resolve("hadoop");
    etcHadoop = Files.createDirectories(hadoopHome.resolve("etc/hadoop"));
    hadoopLib = Files.createDirectories(hadoopHome.resolve("share/hadoop/common/lib"));
    for (String jar : hadoopJars()) {
      Path link = hadoopLib.resolve(Paths.get(jar).getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, Paths.get(jar));
      }
    }
    Path bin = Files.createDirectories(hadoopHome.resolve("bin"));
    Files.writeString(bin.resolve("hadoop"), "#!/usr/bin/env bash\n"
        + "# What Hadoop's own `hadoop classpath` prints for this layout.\n"
        + "[[ \"$1\" == classpath ]] || { echo \"only 'hadoop classpath' here\" >&2; exit 1; }\n"
        + "echo \"" + etcHadoop + ":" + hadoopLib + "/*\"\n");
    Files.setPosixFilePermissions(bin.resolve("hadoop"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(etcHadoop.resolve("log4j.properties"), String.join("\n",
        "hadoop.root.logger=INFO,console",
        "log4j.rootLogger=${hadoop.root.logger}",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.target=System.err",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n", ""));
    writeHadoopSites();
  }

  /** Hadoop's own pseudo-distributed configuration, before mpCache: one node on 127.0.0.1. */
  private static void writeHadoopSites() throws IOException {
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://127.0.0.1:" + PORTS.get("nn.rpc"));
    core.put("hadoop.tmp.dir", work.resolve("tmp").toString());
    SiteFile.write(etcHadoop.resolve("core-site.xml"), core);
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.replication", "1");
    hdfs.put("dfs.blocksize", Long.toString(BLOCK));
    hdfs.put("dfs.namenode.name.dir", work.resolve("dfs/name").toString());
    hdfs.put("dfs.datanode.data.dir", work.resolve("dfs/data").toString());
    hdfs.put("dfs.namenode.http-address", "127.0.0.1:" + PORTS.get("nn.http"));
    hdfs.put("dfs.datanode.address", "127.0.0.1:" + PORTS.get("dn.xfer"));
    hdfs.put("dfs.datanode.http.address", "127.0.0.1:" + PORTS.get("dn.http"));
    hdfs.put("dfs.datanode.ipc.address", "127.0.0.1:" + PORTS.get("dn.ipc"));
    hdfs.put("dfs.datanode.hostname", "127.0.0.1");
    hdfs.put("dfs.namenode.safemode.extension", "0");
    SiteFile.write(etcHadoop.resolve("hdfs-site.xml"), hdfs);
    Map<String, String> yarn = new LinkedHashMap<>();
    yarn.put("yarn.resourcemanager.hostname", "127.0.0.1");
    yarn.put("yarn.resourcemanager.address", "127.0.0.1:" + PORTS.get("rm"));
    yarn.put("yarn.resourcemanager.scheduler.address", "127.0.0.1:" + PORTS.get("rm.scheduler"));
    yarn.put("yarn.resourcemanager.resource-tracker.address",
        "127.0.0.1:" + PORTS.get("rm.tracker"));
    yarn.put("yarn.resourcemanager.admin.address", "127.0.0.1:" + PORTS.get("rm.admin"));
    yarn.put("yarn.resourcemanager.webapp.address", "127.0.0.1:" + PORTS.get("rm.web"));
    yarn.put("yarn.nodemanager.hostname", "127.0.0.1");
    yarn.put("yarn.nodemanager.address", "127.0.0.1:" + PORTS.get("nm"));
    yarn.put("yarn.nodemanager.localizer.address", "127.0.0.1:" + PORTS.get("nm.localizer"));
    yarn.put("yarn.nodemanager.webapp.address", "127.0.0.1:" + PORTS.get("nm.web"));
    yarn.put("mapreduce.shuffle.port", Integer.toString(PORTS.get("shuffle")));
    yarn.put("yarn.nodemanager.local-dirs", work.resolve("hdd1/yarn-local").toString());
    yarn.put("yarn.nodemanager.log-dirs", logs.resolve("userlogs").toString());
    yarn.put("yarn.nodemanager.aux-services", "mapreduce_shuffle");
    yarn.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class",
        "org.apache.hadoop.mapred.ShuffleHandler");
    yarn.put("yarn.nodemanager.resource.memory-mb", "3072");
    yarn.put("yarn.nodemanager.resource.cpu-vcores", "8");
    yarn.put("yarn.scheduler.minimum-allocation-mb", "256");
    yarn.put("yarn.nodemanager.vmem-check-enabled", "false");
    yarn.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage",
        "99");
    yarn.put("yarn.nodemanager.log.retain-seconds", "1");
    SiteFile.write(etcHadoop.resolve("yarn-site.xml"), yarn);
    Map<String, String> mapred = new LinkedHashMap<>();
    mapred.put("mapreduce.framework.name", "yarn");
    mapred.put("yarn.app.mapreduce.am.resource.mb", "512");
    mapred.put("yarn.app.mapreduce.am.command-opts", "-Xmx384m");
    mapred.put("mapreduce.map.memory.mb", "512");
    mapred.put("mapreduce.map.java.opts", "-Xmx384m");
    mapred.put("mapreduce.reduce.memory.mb", "512");
    mapred.put("mapreduce.reduce.java.opts", "-Xmx384m");
    mapred.put("mapreduce.job.reduces", "1");
    SiteFile.write(etcHadoop.resolve("mapred-site.xml"), mapred);
  }

  @AfterAll
  static void stopAll() throws Exception {
    Path pids = work == null ? null : work.resolve("pids");
    if (pids != null && Files.isDirectory(pids)) {
      try (var files = Files.list(pids)) {
        for (Path p : files.toList()) {
          ProcessHandle.of(Long.parseLong(Files.readString(p).trim()))
              .ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
    List<Process> reversed = new ArrayList<>(DAEMONS.values());
    Collections.reverse(reversed);
    for (Process p : reversed) {
      p.destroy();
    }
    for (Process p : reversed) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void installGuide_secondRunHitsAndTurningOffRestoresPlainHadoop() throws Exception {
    long start = System.nanoTime();
    // Hadoop first, as section 6 says: HDFS, then YARN.
    assertEquals(0, hadoop("namenode-format", "org.apache.hadoop.hdfs.server.namenode.NameNode",
        "-format", "-nonInteractive").waitFor(), "NameNode -format failed; see " + logs);
    DAEMONS.put("namenode", hadoop("namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode"));
    DAEMONS.put("datanode", hadoop("datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode"));

    // 1. Unpack the distribution and link it.
    Path tarball = Paths.get(System.getProperty("dist.tarball"));
    Path opt = Files.createDirectories(work.resolve("opt"));
    assertEquals(0, new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", opt.toString())
        .inheritIO().start().waitFor(), "tar failed");
    mpcacheHome = Files.createSymbolicLink(opt.resolve("mpcache"),
        opt.resolve(System.getProperty("dist.name")));
    String version = System.getProperty("dist.name").substring("mpcache-".length());

    // 2. The launcher finds Hadoop through $HADOOP_HOME/bin/hadoop classpath.
    mpcacheEnv = new LinkedHashMap<>();
    mpcacheEnv.put("JAVA_HOME", System.getProperty("java.home"));
    mpcacheEnv.put("HADOOP_HOME", hadoopHome.toString());
    mpcacheEnv.put("MPCACHE_LOG_DIR", logs.toString());
    mpcacheEnv.put("MPCACHE_PID_DIR", work.resolve("pids").toString());
    mpcacheEnv.put("MPCACHE_IDENT_STRING", "guide");
    mpcacheEnv.put("MPCACHE_HEAPSIZE", "256");
    LauncherRun cp = mpcache("classpath");
    assertEquals(0, cp.exit(), cp.output());
    assertTrue(cp.stdout().contains(etcHadoop.toString()), cp.output());

    // 3. conf/mpcache-site.xml: the template's keys uncommented and set.
    String ssdDir = ssd.toString();
    Map<String, String> site = new LinkedHashMap<>();
    site.put("mpcache.master.rpc-address", "127.0.0.1:" + PORTS.get("master.rpc"));
    site.put("mpcache.master.http-address", "127.0.0.1:" + PORTS.get("master.http"));
    site.put("mpcache.slave.cache.dirs", ssdDir);
    site.put("mpcache.slave.cache.capacity", "64m");
    site.put("mpcache.slave.datanode.address", "127.0.0.1:" + PORTS.get("dn.xfer"));
    // The slave's own ports (free ones: the defaults may be taken on a shared machine).
    site.put("mpcache.slave.rpc-address", "127.0.0.1:" + PORTS.get("slave.rpc"));
    site.put("mpcache.slave.localized.bind-address", "127.0.0.1:" + PORTS.get("slave.localized"));
    site.put("mpcache.master.heartbeat.interval.ms", "500");
    SiteFile.set(mpcacheHome.resolve("conf/mpcache-site.xml"), site);

    // 4. The client jar on Hadoop's classpath.
    Files.copy(mpcacheHome.resolve("client/mpcache-client-" + version + ".jar"),
        hadoopLib.resolve("mpcache-client-" + version + ".jar"));

    // 5. Hadoop's configuration.
    Path coreSite = etcHadoop.resolve("core-site.xml");
    Path yarnSite = etcHadoop.resolve("yarn-site.xml");
    Path mapredSite = etcHadoop.resolve("mapred-site.xml");
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.hdfs.impl", "org.mpcache.hdfs.MpCacheFileSystem");
    core.put("mpcache.master.rpc-address", "127.0.0.1:" + PORTS.get("master.rpc"));
    SiteFile.set(coreSite, core);
    Map<String, String> yarn = new LinkedHashMap<>();
    yarn.put("yarn.nodemanager.aux-services", "mapreduce_shuffle,mpcache_localized");
    yarn.put("yarn.nodemanager.aux-services.mpcache_localized.class",
        "org.mpcache.yarn.LocalizedAuxService");
    yarn.put("mpcache.localized.address", "127.0.0.1:" + PORTS.get("slave.localized"));
    yarn.put("mpcache.slave.cache.dirs", ssdDir);
    yarn.put("yarn.nodemanager.local-dirs", work.resolve("hdd1/yarn-local") + "," + ssdDir);
    SiteFile.set(yarnSite, yarn);
    Map<String, String> mapred = new LinkedHashMap<>();
    mapred.put("mapreduce.job.map.output.collector.class",
        "org.mpcache.yarn.SsdMapOutputCollector");
    mapred.put("mapreduce.job.reduce.shuffle.consumer.plugin.class", "org.mpcache.yarn.SsdShuffle");
    SiteFile.set(mapredSite, mapred);

    DAEMONS.put("resourcemanager",
        hadoop("resourcemanager", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager"));
    DAEMONS.put("nodemanager",
        hadoop("nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager"));
    awaitHdfs();
    awaitNodeManager();

    // 6. Start the master, then the slave.
    LauncherRun master = mpcache("--daemon", "start", "master");
    assertEquals(0, master.exit(), master.output());
    LauncherRun slave = mpcache("--daemon", "start", "slave");
    assertEquals(0, slave.exit(), slave.output());
    System.out.printf("Cluster up in %d s%n", seconds(start));

    // 7. Verify: the slave live in the report, the web UI and its data.
    JsonNode report = awaitReport(r -> r.path("liveSlaves").asInt() == 1, "the slave live");
    LauncherRun text = mpcache("admin", "report");
    assertEquals(0, text.exit(), text.output());
    assertTrue(text.stdout().contains("1 live, 0 dead"), text.output());
    String ui = "http://127.0.0.1:" + PORTS.get("master.http");
    assertEquals(200, httpStatus(ui + "/"));
    JsonNode status = JSON.readTree(httpBody(ui + "/status.json?user.name="
        + System.getProperty("user.name")));
    assertEquals(report.at("/slaves/0/slave/slaveId").asText(),
        status.at("/report/slaves/0/slave/slaveId").asText(), status.toString());

    // A PUMA job twice over the same input: the second run reads from the slave.
    DistributedFileSystem dfs = plainHdfs();
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path("/puma/word-count/input");
    long inputBytes = DataGenerators.generate(new WordCount().name(), dfs, input, INPUT_BYTES, 7);
    int blocks = (int) ((inputBytes + BLOCK - 1) / BLOCK);
    JobRun first = runJob(dfs, input, "/puma/word-count/out1");
    // Fills are asynchronous: the second run starts once the input is wholly on the SSD.
    awaitInputCached(input.toString(), blocks);
    JsonNode afterFirst = mpcacheReport();
    JobRun second = runJob(dfs, input, "/puma/word-count/out2");
    JsonNode afterSecond = awaitReport(r -> counter(r, "hits") > counter(afterFirst, "hits"),
        "hits from the second run");
    long fromCache = counter(afterSecond, "bytesFromCache") - counter(afterFirst, "bytesFromCache");
    System.out.printf("First run: %d hits, %d misses. Second run: %d hits, %d misses, %d bytes"
        + " from the SSD (input %d bytes in %d blocks)%n", counter(afterFirst, "hits"),
        counter(afterFirst, "misses"), counter(afterSecond, "hits") - counter(afterFirst, "hits"),
        counter(afterSecond, "misses") - counter(afterFirst, "misses"), fromCache, inputBytes,
        blocks);
    assertTrue(fromCache >= inputBytes / 2, "second run read " + fromCache + " of " + inputBytes
        + " input bytes from the SSD: " + afterSecond);
    assertEquals(first.output, second.output);
    // The Localized Cache took the first run's map outputs: the slave starts the second run of
    // the same job type from the space history that run left.
    assertTrue(slaveLog().contains("Application " + second.application + " (puma-word-count of "),
        "the slave has no localized-space history for " + second.application);

    // 8. Turn mpCache off for the cluster, restart the NodeManager, run the job again.
    SiteFile.remove(coreSite, "fs.hdfs.impl");
    SiteFile.remove(mapredSite, "mapreduce.job.map.output.collector.class",
        "mapreduce.job.reduce.shuffle.consumer.plugin.class");
    SiteFile.set(yarnSite, Map.of("yarn.nodemanager.aux-services", "mapreduce_shuffle"));
    Process nm = DAEMONS.remove("nodemanager");
    nm.destroy();
    assertTrue(nm.waitFor(60, TimeUnit.SECONDS), "the NodeManager did not stop");
    DAEMONS.put("nodemanager",
        hadoop("nodemanager2", "org.apache.hadoop.yarn.server.nodemanager.NodeManager"));
    awaitNodeManager();
    JsonNode beforeOff = mpcacheReport();
    JobRun off = runJob(dfs, input, "/puma/word-count/out3");
    JsonNode afterOff = mpcacheReport();
    assertEquals(counter(beforeOff, "hits"), counter(afterOff, "hits"), afterOff.toString());
    assertEquals(counter(beforeOff, "misses"), counter(afterOff, "misses"), afterOff.toString());
    assertEquals(first.output, off.output);
    assertFalse(slaveLog().contains(off.application), "the slave heard of " + off.application
        + " though the NodeManager runs without mpcache_localized");

    // Then stop the daemons: slaves first.
    LauncherRun stopSlave = mpcache("--daemon", "stop", "slave");
    assertEquals(0, stopSlave.exit(), stopSlave.output());
    LauncherRun stopMaster = mpcache("--daemon", "stop", "master");
    assertEquals(0, stopMaster.exit(), stopMaster.output());
    assertEquals(3, mpcache("--daemon", "status", "master").exit());
    dfs.close();
    System.out.printf("Install guide run: %d s%n", seconds(start));
  }

  private static long seconds(long startNanos) {
    return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
  }

  private static long counter(JsonNode report, String name) {
    return report.path("totalCounters").path(name).asLong(0);
  }

  /** A finished word count: its YARN application and its output, the part files concatenated. */
  private record JobRun(String application, String output) {
  }

  /** Runs the word count in a client process. */
  private static JobRun runJob(DistributedFileSystem dfs, org.apache.hadoop.fs.Path input,
      String output) throws Exception {
    List<String> cmd = javaCommand("-Xmx256m");
    cmd.add("-cp");
    cmd.add(etcHadoop + File.pathSeparator + hadoopLib + "/*" + File.pathSeparator
        + jarOf(WordCount.class) + File.pathSeparator + jarOf(WordCountClient.class));
    cmd.add(WordCountClient.class.getName());
    cmd.add(input.toString());
    cmd.add(output);
    String name = "job-" + new org.apache.hadoop.fs.Path(output).getName();
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(logs.resolve(name + ".out").toFile());
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(name + " did not finish in 5 minutes; see " + logs);
    }
    assertEquals(0, p.exitValue(), name + " failed:\n" + tail(logs.resolve(name + ".out")));
    System.out.printf("%s: %d s%n", name, seconds(start));
    StringBuilder b = new StringBuilder();
    for (FileStatus f : dfs.listStatus(new org.apache.hadoop.fs.Path(output))) {
      if (f.getPath().getName().startsWith("part-")) {
        try (InputStream in = dfs.open(f.getPath())) {
          b.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    assertFalse(b.length() == 0, name + " wrote no output");
    Matcher id = Pattern.compile("Job job_(\\d+_\\d+) succeeded")
        .matcher(Files.readString(logs.resolve(name + ".out")));
    assertTrue(id.find(), name + " printed no job id");
    return new JobRun("application_" + id.group(1), b.toString());
  }

  /** The input's dataset, as {@code admin datasets -path} lists it, has every block cached. */
  private static void awaitInputCached(String path, int blocks) throws Exception {
    JsonNode[] last = new JsonNode[1];
    try {
      await(() -> {
        LauncherRun r = mpcache("admin", "datasets", "-path", path, "-json");
        assertEquals(0, r.exit(), r.output());
        last[0] = JSON.readTree(r.stdout());
        for (JsonNode d : last[0].path("datasets")) {
          if (d.path("cachedBlocks").asInt() == blocks && d.path("sizeBlocks").asInt() == blocks) {
            return true;
          }
        }
        return false;
      }, "all " + blocks + " blocks of " + path + " cached");
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last: " + last[0], e);
    }
  }

  private static String slaveLog() throws IOException {
    try (var files = Files.list(logs)) {
      Path log = files.filter(f -> f.getFileName().toString().startsWith("mpcache-guide-slave-")
          && f.getFileName().toString().endsWith(".log")).findFirst()
          .orElseThrow(() -> new AssertionError("no slave log in " + logs));
      return Files.readString(log);
    }
  }

  /** The jar a class was loaded from; the job's jar must be a jar for the tasks to get it. */
  private static String jarOf(Class<?> c) throws Exception {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** A plain HDFS client of the test's own (no mpCache): writes the input, reads the outputs. */
  private static DistributedFileSystem plainHdfs() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:" + PORTS.get("nn.rpc"));
    conf.setLong("dfs.blocksize", BLOCK);
    conf.setInt("dfs.replication", 1);
    return (DistributedFileSystem) FileSystem.newInstance(conf);
  }

  private static void awaitHdfs() throws Exception {
    try (DistributedFileSystem dfs = plainHdfs()) {
      await(() -> dfs.getDataNodeStats(DatanodeReportType.LIVE).length == 1
          && !dfs.isInSafeMode(), "HDFS with its DataNode, out of safe mode");
    }
  }

  private static void awaitNodeManager() throws Exception {
    YarnConfiguration conf = new YarnConfiguration(new Configuration(false));
    conf.set(YarnConfiguration.RM_ADDRESS, "127.0.0.1:" + PORTS.get("rm"));
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    try {
      await(() -> yarn.getNodeReports(NodeState.RUNNING).size() == 1,
          "the NodeManager registered with the ResourceManager");
    } finally {
      yarn.stop();
    }
  }

  /** A condition that may throw while the daemons come up. */
  private interface Check {
    boolean holds() throws Exception;
  }

  private static void await(Check check, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Exception last = null;
    while (System.nanoTime() < deadline) {
      assertDaemonsAlive();
      try {
        if (check.holds()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("never: " + what + "; see " + logs, last);
  }

  private static void assertDaemonsAlive() throws IOException {
    for (Map.Entry<String, Process> d : DAEMONS.entrySet()) {
      if (!d.getValue().isAlive()) {
        throw new AssertionError(d.getKey() + " exited with " + d.getValue().exitValue() + ":\n"
            + tail(logs.resolve(d.getKey() + ".out")));
      }
    }
  }

  private static String tail(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  private static JsonNode mpcacheReport() throws Exception {
    LauncherRun r = mpcache("admin", "report", "-json");
    assertEquals(0, r.exit(), r.output());
    return JSON.readTree(r.stdout());
  }

  private static JsonNode awaitReport(Predicate<JsonNode> done, String what) throws Exception {
    JsonNode[] last = new JsonNode[1];
    try {
      await(() -> done.test(last[0] = mpcacheReport()), what);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last report: " + last[0], e);
    }
    return last[0];
  }

  /** Starts a Hadoop daemon (or tool) from its main class, as Hadoop's scripts would. */
  private static Process hadoop(String name, String mainClass, String... args) throws IOException {
    List<String> cmd = javaCommand("-Xmx384m");
    cmd.add("-Dhadoop.log.dir=" + logs);
    cmd.add("-Dyarn.log.dir=" + logs);
    cmd.add("-Dhadoop.home.dir=" + hadoopHome);
    cmd.add("-Dhadoop.root.logger=INFO,console");
    cmd.add("-cp");
    cmd.add(etcHadoop + File.pathSeparator + hadoopLib + "/*");
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(logs.resolve(name + ".out").toFile());
    // What Hadoop's scripts export; the NodeManager passes them on to containers, whose
    // classpath (yarn.application.classpath) is built from them.
    Map<String, String> env = pb.environment();
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("HADOOP_HOME", hadoopHome.toString());
    env.put("HADOOP_COMMON_HOME", hadoopHome.toString());
    env.put("HADOOP_HDFS_HOME", hadoopHome.toString());
    env.put("HADOOP_YARN_HOME", hadoopHome.toString());
    env.put("HADOOP_MAPRED_HOME", hadoopHome.toString());
    env.put("HADOOP_CONF_DIR", etcHadoop.toString());
    return pb.start();
  }

  private static List<String> javaCommand(String heap) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(heap);
    for (String p : ADD_OPENS) {
      cmd.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    return cmd;
  }

  /** The test's Hadoop jars: its classpath less the project's own modules. */
  private static List<String> hadoopJars() {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path root = Paths.get(System.getProperty("project.root")).toAbsolutePath().normalize();
    List<String> keep = new ArrayList<>();
    for (String e : cp.split(File.pathSeparator)) {
      if (e.endsWith(".jar") && !Paths.get(e).toAbsolutePath().normalize().startsWith(root)) {
        keep.add(e);
      }
    }
    assertTrue(keep.stream().anyMatch(e -> e.contains("hadoop-yarn-server-nodemanager")), cp);
    return keep;
  }

  private static LauncherRun mpcache(String... args) throws IOException, InterruptedException {
    return LauncherRun.run(mpcacheHome, mpcacheEnv, work, args);
  }

  private static int httpStatus(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    try {
      return c.getResponseCode();
    } finally {
      c.disconnect();
    }
  }

  private static String httpBody(String url) throws IOException {
    try (InputStream in = new URL(url).openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
