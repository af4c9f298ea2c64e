package org.mpcache.benchmarks.datagen;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.common.tools.CommandLineTool;
import org.mpcache.common.tools.ToolOptions;

/**
 * Entry point for generating benchmark input on any Hadoop {@link FileSystem}. A dataset is a
 * directory holding one file, {@value #DATA_FILE}; the file system's block size decides how many
 * map tasks read it. Equal kind, target size and seed give byte-identical files.
 *
 * <p>As a Hadoop tool: {@code DataGenerators <kind-or-benchmark> <output-dir> <bytes> [seed]};
 * {@code --help} describes the arguments. Exit status 0 when written, 1 on bad arguments.
 */
public final class DataGenerators extends CommandLineTool {
  /** Name of the file written inside the dataset directory. */
  public static final String DATA_FILE = "part-00000";
  private static final long DEFAULT_SEED = 42;

  /** A generator printing to the standard streams. */
  public DataGenerators() {
  }

  /** A generator printing what it wrote and the help to {@code out}, errors to {@code err}. */
  DataGenerators(PrintStream out, PrintStream err) {
    super(out, err);
  }

  /**
   * Writes the input of {@code kindOrBenchmark} (a {@link DatasetKind} name or a benchmark name)
   * into the directory {@code dir}, which must not exist yet.
   *
   * @return the number of bytes written: at least {@code targetBytes}, exceeding it by less than
   *     one record
   */
  public static long generate(String kindOrBenchmark, FileSystem fs, Path dir, long targetBytes,
      long seed) throws IOException {
    return generate(DatasetKind.resolve(kindOrBenchmark), fs, dir, targetBytes, seed);
  }

  /** As {@link #generate(String, FileSystem, Path, long, long)} for a resolved kind. */
  public static long generate(DatasetKind kind, FileSystem fs, Path dir, long targetBytes,
      long seed) throws IOException {
    if (targetBytes <= 0) {
      throw new IllegalArgumentException("targetBytes must be positive: " + targetBytes);
    }
    if (fs.exists(dir)) {
      throw new IOException("Dataset directory " + dir + " already exists; remove it or choose"
          + " another path");
    }
    try (ByteSink sink = new ByteSink(fs.create(new Path(dir, DATA_FILE), false))) {
      kind.generator().generate(sink, targetBytes, seed);
      return sink.written();
    }
  }

  @Override
  public ToolOptions options() {
    return new ToolOptions("DataGenerators", "Writes benchmark input into <output-dir>/"
        + DATA_FILE + " on any Hadoop file system.")
        .argument("kind-or-benchmark", "a dataset kind or a PUMA benchmark name", null)
        .argument("output-dir", "the dataset directory, which must not exist", null)
        .argument("bytes", "bytes to write at least", null)
        .argument("seed", "seed of the generator", DEFAULT_SEED)
        .settings("KEY=VALUE", "a Hadoop setting");
  }

  @Override
  protected int execute(ToolOptions.Values o) throws Exception {
    DatasetKind kind = o.value("kind-or-benchmark", DatasetKind::resolve);
    Path dir = o.value("output-dir", Path::new);
    long bytes = o.positiveLong("bytes");
    long written = generate(kind, dir.getFileSystem(getConf()), dir, bytes,
        o.longValue("seed"));
    console.println("Wrote " + written + " bytes to " + dir);
    return 0;
  }

  /** Command-line entry; see the class comment for arguments. */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new DataGenerators(), args));
  }
}
