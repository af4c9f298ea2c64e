package org.mpcache.benchmarks.datagen;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Entry point for generating benchmark input on any Hadoop {@link FileSystem}. A dataset is a
 * directory holding one file, {@value #DATA_FILE}; the file system's block size decides how many
 * map tasks read it. Equal kind, target size and seed give byte-identical files.
 *
 * <p>As a {@link Tool}: {@code DataGenerators <kind-or-benchmark> <output-dir> <bytes> [seed]}.
 */
public final class DataGenerators extends Configured implements Tool {
  /** Name of the file written inside the dataset directory. */
  public static final String DATA_FILE = "part-00000";
  private static final long DEFAULT_SEED = 42;

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
  public int run(String[] args) throws IOException {
    if (args.length < 3 || args.length > 4) {
      System.err.println("Usage: DataGenerators <kind-or-benchmark> <output-dir> <bytes> [seed]");
      return 1;
    }
    Path dir = new Path(args[1]);
    long seed = args.length == 4 ? Long.parseLong(args[3]) : DEFAULT_SEED;
    long written = generate(args[0], dir.getFileSystem(getConf()), dir, Long.parseLong(args[2]),
        seed);
    System.out.println("Wrote " + written + " bytes to " + dir);
    return 0;
  }

  /** Command-line entry; see the class comment for arguments. */
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new DataGenerators(), args));
  }
}
