package org.mpcache.e2e;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.MpCacheConfiguration;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.master.MasterConfigKeys;

/**
 * mpCache daemons as child processes, the way {@code bin/mpcache} runs them (java from
 * {@code java.home}, the daemon's main class, a conf dir holding {@code mpcache-site.xml} first on
 * the classpath, the rest of the classpath this JVM's), so that a test can kill one with SIGKILL
 * or freeze it with SIGSTOP as an operating system would. Each daemon's output goes to
 * {@code <dir>/<name>.log}, appended across restarts; a restart reuses the daemon's configuration,
 * so its ports. {@link #report} asks the master for its admin report.
 *
 * <p>Not thread-safe: one test drives it.
 */
final class DaemonProcesses implements AutoCloseable {
  /** Small heaps, the client compiler only: daemons of a test on a crowded two-core machine. */
  private static final List<String> JVM_OPTS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
      "-XX:+UseSerialGC");

  private final File dir;
  private final Map<String, Daemon> daemons = new HashMap<>();

  private record Daemon(Class<?> main, File confDir, File log, Process process) {
  }

  DaemonProcesses(File dir) {
    this.dir = dir.getAbsoluteFile();
  }

  /**
   * Free loopback ports, chosen up front so that a daemon restarts on the same ones. They are
   * taken below the kernel's ephemeral range where it leaves room: a port of that range, free
   * when chosen, can be handed to another socket (a client's connection, a server binding port
   * 0) before the daemon binds it, which failed a slave's start with "Address already in use".
   */
  static int[] freePorts(int n) throws IOException {
    int[] ports = new int[n];
    List<ServerSocket> held = new ArrayList<>();
    try {
      int low = ephemeralLow();
      int next = low > 10_000 + 10 * n
          ? 10_000 + new Random().nextInt(low - 10_000 - 10 * n) : -1;
      for (int i = 0; i < n; i++) {
        ServerSocket s = null;
        while (s == null && next >= 0 && next < low) {
          try {
            s = new ServerSocket(next++);
          } catch (IOException taken) {
            // In use: the next one.
          }
        }
        if (s == null) {
          s = new ServerSocket(0);
        }
        held.add(s);
        ports[i] = s.getLocalPort();
      }
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
    return ports;
  }

  /**
   * The lowest port of the kernel's ephemeral range, or 0 where it cannot be read. Read by lines:
   * {@code Files.readString} trusts the size a {@code /proc} file reports and returned "3" here,
   * which sent every port into the ephemeral range.
   */
  static int ephemeralLow() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
      return lines.isEmpty() ? 0 : Integer.parseInt(lines.get(0).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * Starts daemon {@code name} from main class {@code main} with configuration {@code conf}; a
   * master without a state directory unless {@code conf} names one, since the default, under
   * {@code hadoop.tmp.dir}, is shared by every master on the machine (an empty value would not
   * survive the site file: it says {@code none}).
   */
  void start(String name, Class<?> main, Configuration conf) throws IOException {
    if (!MpCacheConfiguration.setByUser(conf, MasterConfigKeys.STATE_DIR_KEY)
        || conf.getTrimmed(MasterConfigKeys.STATE_DIR_KEY, "").isEmpty()) {
      conf = new Configuration(conf);
      conf.set(MasterConfigKeys.STATE_DIR_KEY, MasterConfigKeys.STATE_DIR_NONE);
    }
    File confDir = new File(dir, name + "-conf");
    if (!confDir.isDirectory() && !confDir.mkdirs()) {
      throw new IOException("Cannot create " + confDir);
    }
    try (OutputStream out = Files.newOutputStream(new File(confDir, "mpcache-site.xml").toPath())) {
      conf.writeXml(out);
    }
    Files.writeString(new File(confDir, "log4j.properties").toPath(),
        "log4j.rootLogger=INFO,console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.target=System.out\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n",
        StandardCharsets.UTF_8);
    launch(name, new Daemon(main, confDir, new File(dir, name + ".log"), null));
  }

  private void launch(String name, Daemon d) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    command.addAll(JVM_OPTS);
    // The module opens Hadoop needs on JDK 17, as this JVM got them from surefire.
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("--enable-native-access")) {
        command.add(arg);
      }
    }
    command.add("-cp");
    command.add(d.confDir() + File.pathSeparator + System.getProperty("java.class.path"));
    command.add(d.main().getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(d.log())).start();
    daemons.put(name, new Daemon(d.main(), d.confDir(), d.log(), p));
  }

  private Daemon daemon(String name) {
    Daemon d = daemons.get(name);
    if (d == null) {
      throw new IllegalArgumentException("No daemon " + name + " was started");
    }
    return d;
  }

  /** Kills daemon {@code name} with SIGKILL and waits until it is gone. */
  void kill(String name) throws IOException {
    Process p = daemon(name).process();
    p.destroyForcibly(); // SIGKILL on Unix
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        throw new IOException(name + " (pid " + p.pid() + ") survived SIGKILL for 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted killing " + name);
    }
  }

  /** Starts daemon {@code name} again, as it was first started (same configuration, same ports). */
  void restart(String name) throws IOException {
    Daemon d = daemon(name);
    if (d.process().isAlive()) {
      throw new IllegalStateException(name + " is still running");
    }
    launch(name, d);
  }

  /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to daemon {@code name}. */
  void signal(String name, String signal) throws IOException {
    long pid = daemon(name).process().pid();
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
        .redirectErrorStream(true).start();
    try {
      String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IOException("kill -" + signal + " " + pid + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted signalling " + name);
    }
  }

  /**
   * Each daemon's process state and the last lines of its log, for a failure message: a daemon
   * that never answered may have exited at its start (a port taken, a bad key).
   */
  String states() throws IOException {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Daemon> e : daemons.entrySet()) {
      Process p = e.getValue().process();
      List<String> lines = Files.readAllLines(e.getValue().log().toPath(), StandardCharsets.UTF_8);
      b.append('\n').append(e.getKey()).append(" (pid ").append(p.pid()).append(") ")
          .append(p.isAlive() ? "is running" : "exited with code " + p.exitValue())
          .append("; the last lines of its log:\n")
          .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size())));
    }
    return b.toString();
  }

  /** The lines of daemon {@code name}'s log (all its runs) that contain {@code text}. */
  long logLines(String name, String text) throws IOException {
    try (var lines = Files.lines(daemon(name).log().toPath(), StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.contains(text)).count();
    }
  }

  /** The admin report of the master at {@code conf}'s address; fails when it does not answer. */
  static ReportResponseProto report(Configuration conf) throws IOException {
    InetSocketAddress a = conf.getSocketAddr(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        MpCacheConfigKeys.MASTER_RPC_ADDRESS_DEFAULT, 0);
    AdminProtocolPB proxy = RpcSupport.proxy(AdminProtocolPB.class, a, conf, 5_000);
    try {
      return RpcSupport.call(() -> proxy.report(null, ReportRequestProto.getDefaultInstance()));
    } finally {
      RpcSupport.close(proxy);
    }
  }

  /** Kills every daemon still running. */
  @Override
  public void close() {
    for (Daemon d : daemons.values()) {
      d.process().destroyForcibly();
    }
    for (Daemon d : daemons.values()) {
      try {
        d.process().waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
