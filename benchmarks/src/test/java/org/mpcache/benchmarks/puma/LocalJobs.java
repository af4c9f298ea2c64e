package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.mpcache.benchmarks.datagen.DataGenerators;

/**
 * Test fixture: runs benchmarks in Hadoop's local job runner on the local file system, with small
 * splits so that every job has several map tasks, and reads inputs and part files back as text.
 */
final class LocalJobs {
  /** Small enough that a few hundred kilobytes of input make several map tasks. */
  static final long SPLIT_BYTES = 64 * 1024;

  private LocalJobs() {
  }

  /** A local-runner configuration with {@code reduces} reduce tasks. */
  static Configuration conf(int reduces) {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.setInt("mapreduce.job.reduces", reduces);
    conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT_BYTES);
    conf.setInt("mapreduce.task.io.sort.mb", 16);
    // The client checks for completion every 5 s by default, which would dominate small jobs.
    conf.setInt("mapreduce.client.completion.pollinterval", 50);
    return conf;
  }

  /** Generates {@code bytes} of the named dataset under {@code dir} and returns {@code dir}. */
  static Path generate(Configuration conf, String kind, java.nio.file.Path dir, long bytes,
      long seed) throws IOException {
    Path path = new Path(dir.toUri());
    DataGenerators.generate(kind, FileSystem.getLocal(conf), path, bytes, seed);
    return path;
  }

  /** A not yet existing path under {@code dir}. */
  static Path path(java.nio.file.Path dir, String name) {
    return new Path(dir.resolve(name).toUri());
  }

  /** The lines of the visible files under {@code dir}, files in name order. */
  static List<String> lines(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<String> lines = new ArrayList<>();
    for (Path file : files(fs, dir)) {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          lines.add(line);
        }
      }
    }
    return lines;
  }

  /** The visible files under {@code dir} in name order. */
  static List<Path> files(FileSystem fs, Path dir) throws IOException {
    FileStatus[] statuses = fs.listStatus(dir,
        p -> !p.getName().startsWith("_") && !p.getName().startsWith("."));
    Arrays.sort(statuses, Comparator.comparing(s -> s.getPath().getName()));
    List<Path> files = new ArrayList<>();
    for (FileStatus status : statuses) {
      files.add(status.getPath());
    }
    return files;
  }

  /** Output lines {@code key TAB count}, the key possibly holding tabs itself; keys must be unique. */
  static Map<String, Long> counts(Configuration conf, Path output) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : lines(conf, output)) {
      int tab = line.lastIndexOf('\t');
      Long previous = counts.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
      assertNull(previous, "key written twice: " + line);
    }
    return counts;
  }

  /** Output lines {@code key TAB value}, the key without tabs; keys must be unique. */
  static Map<String, String> keyValues(Configuration conf, Path output) throws IOException {
    Map<String, String> values = new TreeMap<>();
    for (String line : lines(conf, output)) {
      int tab = line.indexOf('\t');
      String previous = values.put(line.substring(0, tab), line.substring(tab + 1));
      assertNull(previous, "key written twice: " + line);
    }
    return values;
  }
}
