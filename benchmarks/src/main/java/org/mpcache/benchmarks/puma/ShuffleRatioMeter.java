package org.mpcache.benchmarks.puma;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;
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
 * must not exist. Prints a Markdown table. {@code --help} describes the arguments. Exit status 0
 * when measured, 1 on bad arguments.
 */
public final class ShuffleRatioMeter extends CommandLineTool {
  private static final long SEED = 42;

  /** A meter printing to the standard streams. */
  public ShuffleRatioMeter() {
  }

  /** A meter printing its table and the help to {@code out}, errors to {@code err}. */
  ShuffleRatioMeter(PrintStream out, PrintStream err) {
    super(out, err);
  }

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
  public ToolOptions options() {
    return new ToolOptions("ShuffleRatioMeter", "Measures each benchmark's shuffle-to-input "
        + "ratio with the configuration given and prints a Markdown table.")
        .argument("megabytes", "MB (10^6 bytes) of each input kind", null)
        .argument("work-dir", "directory for the inputs and outputs, which must not exist", null)
        .remaining("benchmark", "the benchmarks to measure", "all, in Table 1's order")
        .settings("KEY=VALUE", "a Hadoop setting");
  }

  @Override
  protected int execute(ToolOptions.Values o) throws Exception {
    long bytes = (long) (o.positiveDouble("megabytes") * 1_000_000);
    Path workDir = o.value("work-dir", Path::new);
    List<PumaBenchmark> benchmarks = new ArrayList<>(o.list("benchmark", PumaBenchmarks::byName));
    if (benchmarks.isEmpty()) {
      benchmarks.addAll(PumaBenchmarks.all());
    }
    console.print(table(measure(getConf(), workDir, bytes, benchmarks)));
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
