package org.mpcache.benchmarks.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every dataset kind is deterministic, sized as asked and in its documented format. */
class DataGeneratorsTest {
  private static final long TARGET = 200_000;

  @TempDir
  java.nio.file.Path dir;
  private final FileSystem fs = localFs();

  private static FileSystem localFs() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest
  @EnumSource(DatasetKind.class)
  void generate_sameSeedAndSize_writesIdenticalBytes(DatasetKind kind) throws IOException {
    byte[] first = generate(kind, "first", TARGET, 1);
    byte[] second = generate(kind, "second", TARGET, 1);

    assertArrayEquals(first, second);
  }

  @ParameterizedTest
  @EnumSource(DatasetKind.class)
  void generate_otherSeed_writesOtherBytes(DatasetKind kind) throws IOException {
    assertFalse(Arrays.equals(generate(kind, "first", TARGET, 1), generate(kind, "second", TARGET, 2)));
  }

  @ParameterizedTest
  @EnumSource(DatasetKind.class)
  void generate_anyKind_reachesTargetWithinOneRecordAndReportsSize(DatasetKind kind)
      throws IOException {
    Path path = new Path(dir.resolve("data").toUri());
    long written = DataGenerators.generate(kind, fs, path, TARGET, 5);
    byte[] bytes = read(path);

    assertEquals(written, bytes.length);
    assertTrue(written >= TARGET, "wrote " + written);
    assertTrue(written < TARGET + 64 * 1024, "wrote " + written);
  }

  @ParameterizedTest
  @EnumSource(value = DatasetKind.class, names = "TERA_RECORDS", mode = EnumSource.Mode.EXCLUDE)
  void generate_textKind_everyLineMatchesDocumentedFormat(DatasetKind kind) throws IOException {
    Pattern format = switch (kind) {
      case WIKIPEDIA_TEXT -> Pattern.compile("h\\d{6}\\.wiki\\.example\\td\\d+\\t[a-z]+\\.?( [a-z]+\\.?)*");
      case MOVIE_RATINGS -> Pattern.compile("\\d+:\\d+_[1-5](,\\d+_[1-5])*");
      case SELF_JOIN_RECORDS -> Pattern.compile("\\d+,\\d+,\\d+,\\d+");
      case GRAPH_EDGES -> Pattern.compile("\\d+\\t\\d+");
      case SEQUENCE_COUNTS -> Pattern.compile("[a-z]+ [a-z]+ [a-z]+\\th\\d{6}\\.wiki\\.example\\t\\d+");
      case TERA_RECORDS -> throw new AssertionError("binary");
    };
    String text = new String(generate(kind, "data", TARGET, 3), StandardCharsets.US_ASCII);

    assertTrue(text.endsWith("\n"));
    String[] lines = text.split("\n");
    assertTrue(lines.length > 10);
    for (String line : lines) {
      assertTrue(format.matcher(line).matches(), kind + " line: " + line);
    }
  }

  @Test
  void generate_movieRatings_usersAreDistinctWithinAMovie() throws IOException {
    String text = new String(generate(DatasetKind.MOVIE_RATINGS, "data", TARGET, 4),
        StandardCharsets.US_ASCII);
    for (String line : text.split("\n")) {
      String[] ratings = line.substring(line.indexOf(':') + 1).split(",");
      long distinctUsers = Arrays.stream(ratings).map(r -> r.substring(0, r.indexOf('_')))
          .distinct().count();
      assertEquals(ratings.length, distinctUsers, line);
    }
  }

  @Test
  void generate_teraRecords_writesWholeRecordsWithTeraGenSeparators() throws IOException {
    byte[] bytes = generate(DatasetKind.TERA_RECORDS, "data", TARGET, 6);

    assertEquals(0, bytes.length % TeraRecordGenerator.RECORD_BYTES);
    for (int offset = 0; offset < bytes.length; offset += TeraRecordGenerator.RECORD_BYTES) {
      assertEquals(0x00, bytes[offset + 10]);
      assertEquals(0x11, bytes[offset + 11]);
      assertEquals((byte) 0xFF, bytes[offset + 99]);
    }
  }

  @Test
  void generate_benchmarkName_usesThatBenchmarksKind() throws IOException {
    byte[] byBenchmark = generate("k-means", "by-benchmark", 20_000, 8);
    byte[] byKind = generate("movie-ratings", "by-kind", 20_000, 8);

    assertArrayEquals(byKind, byBenchmark);
  }

  @Test
  void generate_unknownName_throwsListingKindsAndBenchmarks() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> generate("netflix", "data", 1_000, 1));

    assertTrue(e.getMessage().contains("movie-ratings"), e.getMessage());
    assertTrue(e.getMessage().contains("tera-sort"), e.getMessage());
  }

  @Test
  void generate_existingDirectory_refusesToOverwrite() throws IOException {
    generate(DatasetKind.GRAPH_EDGES, "data", 1_000, 1);

    assertThrows(IOException.class, () -> generate(DatasetKind.GRAPH_EDGES, "data", 1_000, 1));
  }

  private byte[] generate(DatasetKind kind, String name, long bytes, long seed) throws IOException {
    Path path = new Path(dir.resolve(name).toUri());
    DataGenerators.generate(kind, fs, path, bytes, seed);
    return read(path);
  }

  private byte[] generate(String kind, String name, long bytes, long seed) throws IOException {
    Path path = new Path(dir.resolve(name).toUri());
    DataGenerators.generate(kind, fs, path, bytes, seed);
    return read(path);
  }

  private byte[] read(Path datasetDir) throws IOException {
    try (InputStream in = fs.open(new Path(datasetDir, DataGenerators.DATA_FILE))) {
      return in.readAllBytes();
    }
  }
}
