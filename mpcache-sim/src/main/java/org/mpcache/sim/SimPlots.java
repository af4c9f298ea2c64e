package org.mpcache.sim;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws the simulator's results as PNG charts in the style of the paper's Figure 5: one line per
 * policy against the cache size per node. Stateless.
 */
final class SimPlots {

  private SimPlots() {
  }

  /**
   * Writes hit-ratio.png, effective-hit-ratio.png, speedup.png and ssd-written.png into
   * {@code dir}; the effective hit ratio plot also draws {@code bounds} (cache bytes per node to
   * the upper bound).
   */
  static List<Path> write(List<SimResult> results, Map<Long, Double> bounds, Path dir)
      throws IOException {
    List<Path> out = new ArrayList<>();
    out.add(chart(results, Map.of(), dir.resolve("hit-ratio.png"), "Block hit ratio",
        "hit ratio", SimResult::hitRatio));
    out.add(chart(results, bounds, dir.resolve("effective-hit-ratio.png"),
        "Effective hit ratio (jobs with their whole input cached)", "effective hit ratio",
        SimResult::effectiveHitRatio));
    out.add(chart(results, Map.of(), dir.resolve("speedup.png"), "Estimated speedup over Hadoop",
        "speedup", SimResult::speedup));
    out.add(chart(results, Map.of(), dir.resolve("ssd-written.png"),
        "Bytes written to the SSDs (every node)", "GiB written", SimResult::ssdWrittenGib));
    return out;
  }

  private static Path chart(List<SimResult> results, Map<Long, Double> bounds, Path file,
      String title, String yTitle, ToDoubleFunction<SimResult> y) throws IOException {
    XYChart c = new XYChartBuilder().width(800).height(500).title(title)
        .xAxisTitle("cache size per node (GB)").yAxisTitle(yTitle).build();
    Map<String, List<SimResult>> byPolicy = new LinkedHashMap<>();
    for (SimResult r : results) {
      byPolicy.computeIfAbsent(r.policy, p -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<String, List<SimResult>> e : byPolicy.entrySet()) {
      double[] xs = new double[e.getValue().size()];
      double[] ys = new double[xs.length];
      for (int i = 0; i < xs.length; i++) {
        SimResult r = e.getValue().get(i);
        xs[i] = r.capacityBytesPerNode / (double) (1L << 30);
        ys[i] = y.applyAsDouble(r);
      }
      c.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
    }
    if (!bounds.isEmpty()) {
      double[] xs = new double[bounds.size()];
      double[] ys = new double[xs.length];
      int i = 0;
      for (Map.Entry<Long, Double> b : bounds.entrySet()) {
        xs[i] = b.getKey() / (double) (1L << 30);
        ys[i++] = b.getValue();
      }
      c.addSeries("upper bound", xs, ys).setMarker(SeriesMarkers.NONE)
          .setLineStyle(SeriesLines.DASH_DASH).setLineColor(Color.BLACK);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
