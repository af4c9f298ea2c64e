package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.benchmarks.datagen.DataGenerators;
import org.mpcache.benchmarks.datagen.DatasetKind;

/**
 * Measures each benchmark's shuffle-to-input ratio, the quantity behind Table 1's shuffle classes:
 * it generates every input kind once (seed 42), runs the benchmarks on it with the configuration
 * given (the local job runner unless told otherwise) and reports, from the job counters, bytes read
 * by the input format, map output materialized bytes (after the combiner, i.e. what the shuffle
 * moves) and their ratio. For k-means the figures sum all iterations.
 *
 * <p>Usage: {@code ShuffleRatioMeter <megabytes> <work-dir> [benchmark ...]}; the work directory
 * must not exist. Prints a Markdown table.
 */
public final class ShuffleRatioMeter extends Configured implements Tool {
  private static final long SEED = 42;

  /** One benchmark's measured figures. */
  public record Measurement(String benchmark, ShuffleClass shuffleClass, int jobs, long inputBytes,
      long shuffleBytes, double generateSeconds, double runSeconds) {

    /** Map output materialized bytes over input bytes read. */
    public double ratio() {
      return (double) shuffleBytes / inputBytes;
    }
  }

  /** Generates inputs of {@code bytes} under {@code workDir} and measures {@code benchmarks}. */
  public static List<Measurement> measure(Configuration conf, Path workDir, long bytes,
      List<PumaBenchmark> benchmarks) throws IOException, InterruptedException {
    FileSystem fs = workDir.getFileSystem(conf);
    Map<DatasetKind, Path> inputs = new EnumMap<>(DatasetKind.class);
    Map<DatasetKind, Double> generateSeconds = new EnumMap<>(DatasetKind.class);
    List<Measurement> measurements = new ArrayList<>();
    for (PumaBenchmark benchmark : benchmarks) {
      DatasetKind kind = benchmark.inputKind();
      if (!inputs.containsKey(kind)) {
        Path input = new Path(workDir, kind.kindName());
        long start = System.nanoTime();
        DataGenerators.generate(kind, fs, input, bytes, SEED);
        generateSeconds.put(kind, (System.nanoTime() - start) / 1e9);
        inputs.put(kind, input);
      }
      long start = System.nanoTime();
      PumaRun run = benchmark.run(conf, inputs.get(kind), new Path(workDir, benchmark.name()));
      double seconds = (System.nanoTime() - start) / 1e9;
      if (!run.success()) {
        throw new IOException(benchmark.name() + " failed; see the job logs");
      }
      measurements.add(new Measurement(benchmark.name(), benchmark.shuffleClass(),
          run.jobs().size(), run.counters().findCounter(FileInputFormatCounter.BYTES_READ).getValue(),
          run.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES), generateSeconds.get(kind),
          seconds));
    }
    return measurements;
  }

  /** The measurements as a Markdown table. */
  public static String table(List<Measurement> measurements) {
    StringBuilder table = new StringBuilder(
        "| benchmark | Table 1 class | jobs | input read (MB) | map output materialized (MB) |"
            + " shuffle/input | input generated in (s) | run time (s) |\n"
            + "|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (Measurement m : measurements) {
      table.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %.3f | %.4f | %.1f | %.1f |%n",
          m.benchmark(), m.shuffleClass().name().toLowerCase(Locale.ROOT), m.jobs(),
          m.inputBytes() / 1e6, m.shuffleBytes() / 1e6, m.ratio(), m.generateSeconds(),
          m.runSeconds()));
    }
    return table.toString();
  }

  @Override
  public int run(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println("Usage: ShuffleRatioMeter <megabytes> <work-dir> [benchmark ...]");
      return 1;
    }
    List<PumaBenchmark> benchmarks = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      benchmarks.add(PumaBenchmarks.byName(args[i]));
    }
    if (benchmarks.isEmpty()) {
      benchmarks.addAll(PumaBenchmarks.all());
    }
    long bytes = (long) (Double.parseDouble(args[0]) * 1_000_000);
    System.out.print(table(measure(getConf(), new Path(args[1]), bytes, benchmarks)));
    return 0;
  }

  /** Command-line entry; see the class comment for arguments. */
  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.setIfUnset("mapreduce.framework.name", "local");
    conf.setIfUnset("mapreduce.client.completion.pollinterval", "200");
    System.exit(ToolRunner.run(conf, new ShuffleRatioMeter(), args));
  }
}
