package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.benchmarks.datagen.TeraRecordGenerator;

/** tera-sort on generated records: output is the input sorted, globally across part files. */
class TeraSortTest {
  private static final int REDUCES = 3;

  @TempDir
  java.nio.file.Path dir;

  @Test
  void run_threeReduces_writesInputRecordsInGlobalKeyOrder() throws Exception {
    Configuration conf = LocalJobs.conf(REDUCES);
    conf.setInt(PumaConfigKeys.TERA_SORT_SAMPLES_KEY, 500);
    Path input = LocalJobs.generate(conf, "tera-sort", dir.resolve("input"), 300_000, 13);
    Path output = LocalJobs.path(dir, "output");
    FileSystem fs = FileSystem.getLocal(conf);

    assertTrue(new TeraSort().run(conf, input, output).success());

    List<byte[]> expected = records(fs, List.of(new Path(input, "part-00000")));
    expected.sort(TeraSortTest::compareUnsigned);
    List<Path> parts = LocalJobs.files(fs, output);
    assertEquals(REDUCES, parts.size());
    for (Path part : parts) {
      assertTrue(fs.getFileStatus(part).getLen() > 0, "partition " + part + " should not be empty");
    }
    List<byte[]> actual = records(fs, parts);
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(Arrays.equals(expected.get(i), actual.get(i)), "record " + i + " differs");
    }
    assertFalse(fs.exists(TeraSort.partitionFile(output)), "partition file should be removed");
  }

  private static int compareUnsigned(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  private static List<byte[]> records(FileSystem fs, List<Path> files) throws IOException {
    List<byte[]> records = new ArrayList<>();
    for (Path file : files) {
      try (InputStream in = fs.open(file)) {
        byte[] all = in.readAllBytes();
        assertEquals(0, all.length % TeraRecordGenerator.RECORD_BYTES, file + " has a partial record");
        for (int offset = 0; offset < all.length; offset += TeraRecordGenerator.RECORD_BYTES) {
          records.add(Arrays.copyOfRange(all, offset, offset + TeraRecordGenerator.RECORD_BYTES));
        }
      }
    }
    return records;
  }
}
