package org.mpcache.benchmarks.readpath;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Time;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * What the cache's client costs a JVM that reads once, as every map task is: the embedded
 * cluster ({@link MiniMpCacheCluster}: one DataNode, the master and one slave) runs in this JVM,
 * and each read is a fresh JVM ({@link ClientStartupProbe}) that makes its FileSystem, reads one
 * file from the start and reports the CPU its whole process spent (JVM start, class loading, JIT
 * and GC included), its wall time, the classes it loaded and the blocks it read through
 * descriptors. Rows: plain HDFS; an mpCache hit with the client's defaults (local hits through
 * the slave's block stream until {@code mpcache.client.domain.socket.after.bytes}); a hit through
 * descriptors from the first block ({@code after.bytes=0}); a miss with fills off (the lookup,
 * then HDFS). Each of {@code --rounds} rounds runs every row once, the order
 * turned one further each round; the table gives each row's median and range, and its CPU
 * against plain HDFS's in the same round.
 *
 * <p>Usage: {@code ClientStartupFigures [--mib M] [--block-mib B] [--rounds R] [--dir DIR]
 * [--jvm-opts "OPTS"]}; defaults 32 MiB of 8 MiB blocks, 10 rounds, {@code -Xmx384m} (a map's
 * heap in the evaluation).
 */
public final class ClientStartupFigures {
  private long fileBytes = 32L << 20;
  private long blockBytes = 8L << 20;
  private int rounds = 10;
  private File dir = new File("target/client-startup");
  private String jvmOpts = "-Xmx384m";

  private ClientStartupFigures() {
  }

  public static void main(String[] args) throws Exception {
    ClientStartupFigures f = new ClientStartupFigures();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--mib": f.fileBytes = Long.parseLong(v) << 20; break;
        case "--block-mib": f.blockBytes = Long.parseLong(v) << 20; break;
        case "--rounds": f.rounds = Integer.parseInt(v); break;
        case "--dir": f.dir = new File(v); break;
        case "--jvm-opts": f.jvmOpts = v; break;
        default: throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    f.run();
    System.exit(0);
  }

  /** One row: the client's settings, the file it reads, whether its bytes must come from cache. */
  private static final class Row {
    final String name;
    final File conf;
    final Path file;
    final boolean hit;
    final List<long[]> samples = new ArrayList<>();

    Row(String name, File conf, Path file, boolean hit) {
      this.name = name;
      this.conf = conf;
      this.file = file;
      this.hit = hit;
    }
  }

  private void run() throws Exception {
    FileUtil.fullyDelete(dir);
    MiniMpCacheCluster.Builder builder = new MiniMpCacheCluster.Builder(dir).dataNodes(1)
        .blockSize(blockBytes)
        // A loaded machine must not turn a hit into a fallback: the rows would mix.
        .set(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, "30000")
        // The client as shipped: the embedded cluster's tests start descriptors at once.
        .set(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY,
            Long.toString(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_DEFAULT))
        .slaveCapacity(4 * fileBytes + (1L << 30));
    try (MiniMpCacheCluster c = builder.build()) {
      Path cached = new Path("/client-startup/cached/data");
      Path missed = new Path("/client-startup/missed/data");
      write(c, cached);
      write(c, missed);
      try (FileSystem cache = c.fileSystem()) {
        long deadline = Time.monotonicNow() + 120_000;
        while (ReadPathFigures.cachedBlocks(c, cached)
            < ReadPathFigures.blocksOf(c, cached).size()) {
          if (Time.monotonicNow() > deadline) {
            throw new IllegalStateException(cached + " not cached after 2 minutes");
          }
          readAll(cache, cached);
          Thread.sleep(500);
        }
      }
      Configuration descriptor = new Configuration(c.conf());
      descriptor.setLong(ClientConfigKeys.DOMAIN_SOCKET_AFTER_BYTES_KEY, 0);
      Configuration noFill = new Configuration(c.conf());
      noFill.setBoolean(ClientConfigKeys.FILL_ENABLED_KEY, false);
      List<Row> rows = List.of(
          new Row("plain HDFS", confFile(c.plainHadoopConf(), "plain"), cached, false),
          new Row("mpCache hit, defaults", confFile(c.conf(), "defaults"), cached, true),
          new Row("mpCache hit, descriptors from the first block",
              confFile(descriptor, "descriptor"), cached, true),
          new Row("mpCache miss, fills off", confFile(noFill, "miss"), missed, false));
      for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < rows.size(); i++) {
          Row row = rows.get((round + i) % rows.size());
          row.samples.add(probe(row));
        }
      }
      print(rows);
    }
  }

  private File confFile(Configuration conf, String name) throws IOException {
    Configuration copy = new Configuration(conf);
    // The probe's FileSystem is its own: nothing else in its JVM made one.
    copy.setBoolean("fs.hdfs.impl.disable.cache", false);
    File f = new File(dir, name + "-site.xml");
    try (OutputStream out = new FileOutputStream(f)) {
      copy.writeXml(out);
    }
    return f;
  }

  /** {@code {cpu_ms, wall_ms, classes, descriptor_hits}} of one fresh JVM's read. */
  private long[] probe(Row row) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.addAll(Arrays.asList(jvmOpts.trim().split("\\s+")));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
        ClientStartupProbe.class.getName(), row.conf.getPath(), row.file.toString()));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    // The figures are the last line; the client's log may come before them.
    String line = null;
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = r.readLine()) != null; ) {
        line = l;
      }
    }
    if (p.waitFor() != 0 || line == null) {
      throw new IllegalStateException(row.name + ": the probe failed (exit " + p.exitValue() + ")");
    }
    long[] v = Arrays.stream(line.trim().split(" ")).mapToLong(Long::parseLong).toArray();
    if (v[3] != fileBytes) {
      throw new IllegalStateException(row.name + ": read " + v[3] + " of " + fileBytes + " bytes");
    }
    if (row.hit && v[4] != fileBytes) {
      throw new IllegalStateException(row.name + ": " + v[4] + " of " + fileBytes
          + " bytes from the cache");
    }
    return new long[] {v[0], v[1], v[2], v[5]};
  }

  private void print(List<Row> rows) {
    System.out.printf(Locale.ROOT, "%n%d MiB in %d MiB blocks, %d rounds, JVM options %s%n%n",
        fileBytes >> 20, blockBytes >> 20, rounds, jvmOpts);
    System.out.println("| row | process CPU ms | CPU over plain HDFS's | wall ms | classes"
        + " | blocks by descriptor |");
    System.out.println("| --- | --- | --- | --- | --- | --- |");
    Row plain = rows.get(0);
    for (Row r : rows) {
      double[] ratio = new double[r.samples.size()];
      for (int i = 0; i < ratio.length; i++) {
        ratio[i] = (double) r.samples.get(i)[0] / plain.samples.get(i)[0];
      }
      RatioSummary s = RatioSummary.of(ratio);
      System.out.printf(Locale.ROOT, "| %s | %s | %.2fx (%.2f-%.2f) | %s | %s | %s |%n", r.name,
          spread(r, 0), s.median, s.min, s.max, spread(r, 1), spread(r, 2), spread(r, 3));
    }
  }

  /** Column {@code k}'s median and range over the rounds. */
  private static String spread(Row r, int k) {
    long[] v = r.samples.stream().mapToLong(s -> s[k]).sorted().toArray();
    return String.format(Locale.ROOT, "%d (%d-%d)", v[v.length / 2], v[0], v[v.length - 1]);
  }

  private void write(MiniMpCacheCluster c, Path p) throws IOException {
    byte[] buf = new byte[1 << 20];
    Random r = new Random(p.hashCode());
    try (FileSystem fs = c.plainFileSystem();
        FSDataOutputStream out = fs.create(p, true, buf.length, (short) 1, blockBytes)) {
      for (long left = fileBytes; left > 0; left -= buf.length) {
        r.nextBytes(buf);
        out.write(buf, 0, (int) Math.min(buf.length, left));
      }
    }
  }

  private static void readAll(FileSystem fs, Path p) throws IOException {
    byte[] buf = new byte[1 << 20];
    try (FSDataInputStream in = fs.open(p)) {
      while (in.read(buf) > 0) {
        // Read for its side effect: the slave fills what the reader missed.
      }
    }
  }
}
