package org.mpcache.benchmarks.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meter reads real counters: a light and a heavy benchmark land on opposite sides. */
class ShuffleRatioMeterTest {
  @TempDir
  java.nio.file.Path dir;

  @Test
  void measure_histogramAndTeraSort_ratiosSeparateLightFromHeavy() throws Exception {
    List<ShuffleRatioMeter.Measurement> measurements = ShuffleRatioMeter.measure(
        LocalJobs.conf(1), new Path(dir.resolve("work").toUri()), 300_000,
        List.of(PumaBenchmarks.byName("histogram-ratings"), PumaBenchmarks.byName("tera-sort")));

    ShuffleRatioMeter.Measurement histogram = measurements.get(0);
    ShuffleRatioMeter.Measurement teraSort = measurements.get(1);
    assertTrue(histogram.inputBytes() >= 300_000, "input read: " + histogram.inputBytes());
    assertTrue(histogram.ratio() < 0.01, "histogram-ratings ratio " + histogram.ratio());
    assertTrue(teraSort.ratio() > 0.9 && teraSort.ratio() < 1.2, "tera-sort ratio " + teraSort.ratio());
    String table = ShuffleRatioMeter.table(measurements);
    assertEquals(4, table.lines().count(), table);
    assertTrue(table.contains("| tera-sort | heavy | 1 |"), table);
  }
}
