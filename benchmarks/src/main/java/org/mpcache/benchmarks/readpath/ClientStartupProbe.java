package org.mpcache.benchmarks.readpath;

import java.lang.management.ManagementFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.mpcache.hdfs.ClientCounters;

/**
 * One fresh JVM's read of a file, as a map task's is: the FileSystem made from a configuration
 * file, the file read once from the start, 64 KiB at a time, and then one line on standard output
 * with what the whole process spent: {@code cpu_ms wall_ms classes bytes bytes_from_cache
 * descriptor_hits}. The
 * CPU is the process's (every thread: JIT, GC, class loading), from the JVM's start; the wall time
 * is from the FileSystem's creation to the read's end. {@link ClientStartupFigures} runs it.
 *
 * <p>Usage: {@code ClientStartupProbe CONF_XML PATH}.
 */
public final class ClientStartupProbe {
  private ClientStartupProbe() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: ClientStartupProbe CONF_XML PATH");
    }
    long start = System.nanoTime();
    Configuration conf = new Configuration();
    conf.addResource(new Path(args[0]));
    long bytes = 0;
    byte[] buf = new byte[64 * 1024];
    FileSystem fs = FileSystem.get(conf);
    try (FSDataInputStream in = fs.open(new Path(args[1]))) {
      for (int n; (n = in.read(buf)) > 0; ) {
        bytes += n;
      }
    }
    long wallMs = (System.nanoTime() - start) / 1_000_000;
    // Asked only of the cache's client: naming the class in a plain run would load it.
    boolean cache = fs.getClass().getName().startsWith("org.mpcache.");
    long fromCache = cache ? ClientCounters.get().bytesFromCache() : 0;
    long byDescriptor = cache ? ClientCounters.get().hitsByDescriptor() : 0;
    long cpuMs = ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    System.out.println(cpuMs + " " + wallMs + " " + classes + " " + bytes + " " + fromCache + " "
        + byDescriptor);
    System.out.flush();
    // Measured already; the FileSystem's threads need not hold the JVM.
    Runtime.getRuntime().halt(0);
  }
}
