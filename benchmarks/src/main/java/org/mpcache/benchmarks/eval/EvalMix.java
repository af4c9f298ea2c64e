package org.mpcache.benchmarks.eval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mpcache.benchmarks.datagen.DatasetKind;
import org.mpcache.benchmarks.datagen.SeededRandom;
import org.mpcache.benchmarks.datagen.ZipfDistribution;
import org.mpcache.benchmarks.puma.PumaBenchmark;
import org.mpcache.benchmarks.puma.PumaBenchmarks;
import org.mpcache.benchmarks.puma.ShuffleClass;

/**
 * The evaluation's job mixes, scaled to one machine. {@link #paper} is the paper's mix (Section
 * 3.2): each job is one of the 13 PUMA benchmarks, drawn uniformly, over input size class
 * {@code k} in {@code 1..classes} drawn by the Zipf law of Equation 3,
 * {@code f(k; s, N) = (1/k^s) / sum_{i=1..N} 1/i^s}; a dataset of class {@code k} holds
 * {@code k * bytesPerClass} bytes (the paper's 3-4.3 GB per unit of k shrunk to what the machine
 * holds). {@link #reuse} is the mix with the paper's reuse: few datasets, each read by several
 * jobs of different benchmarks, chosen by Zipf popularity, as the paper's 13 benchmarks read one
 * Wikipedia dump, one ratings set and a few more. {@link #suite} is the paper's mix with every
 * benchmark in it: the 13 benchmarks in turn, size classes by Equation 3. Pure: equal arguments
 * give the same mix.
 */
public final class EvalMix {
  private EvalMix() {
  }

  /**
   * Draws {@code jobs} jobs.
   *
   * @param benchmarks the benchmarks to draw from (all 13 for the paper's mix)
   * @param classes N of Equation 3
   * @param exponent s of Equation 3
   * @param bytesPerClass bytes of a size-class-1 dataset
   */
  public static List<MixJob> draw(List<PumaBenchmark> benchmarks, int jobs, int classes,
      double exponent, long bytesPerClass, long seed) {
    return mix(benchmarks, jobs, classes, exponent, bytesPerClass, seed, false);
  }

  /**
   * Draws {@code jobs} jobs that take {@code benchmarks} in turn, in an order the seed shuffles
   * anew for each round through them, each over a size class drawn by Equation 3 (as
   * {@link #draw}, where a benchmark is drawn uniformly instead): every benchmark runs
   * {@code jobs / benchmarks} or one more times, so a per-benchmark figure (the paper's Fig. 3)
   * has each of them. Jobs of the same input kind and class share a dataset, so the benchmarks
   * that read one kind re-read each other's inputs, as the paper's do.
   *
   * @param classes N of Equation 3
   * @param exponent s of Equation 3
   * @param bytesPerClass bytes of a size-class-1 dataset
   */
  public static List<MixJob> suite(List<PumaBenchmark> benchmarks, int jobs, int classes,
      double exponent, long bytesPerClass, long seed) {
    return mix(benchmarks, jobs, classes, exponent, bytesPerClass, seed, true);
  }

  /**
   * {@link #draw} ({@code inTurn} false: each job's benchmark drawn uniformly) or {@link #suite}
   * ({@code inTurn}: the benchmarks in a shuffled order per round); the size class of each job
   * by Equation 3.
   */
  private static List<MixJob> mix(List<PumaBenchmark> benchmarks, int jobs, int classes,
      double exponent, long bytesPerClass, long seed, boolean inTurn) {
    if (jobs < 1 || classes < 1 || bytesPerClass < 1 || benchmarks.isEmpty()) {
      throw new IllegalArgumentException("A mix needs jobs >= 1, size classes >= 1, bytes per "
          + "class >= 1 and at least one benchmark; got " + jobs + ", " + classes + ", "
          + bytesPerClass + ", " + benchmarks.size());
    }
    ZipfDistribution zipf = new ZipfDistribution(classes, exponent);
    SeededRandom random = new SeededRandom(seed);
    List<MixJob> out = new ArrayList<>(jobs);
    List<PumaBenchmark> round = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      PumaBenchmark b;
      if (inTurn) {
        if (round.isEmpty()) {
          round.addAll(benchmarks);
          for (int j = round.size() - 1; j > 0; j--) {
            round.set(j, round.set(random.nextInt(j + 1), round.get(j)));
          }
        }
        b = round.remove(round.size() - 1);
      } else {
        b = benchmarks.get(random.nextInt(benchmarks.size()));
      }
      int k = zipf.sample(random) + 1;
      out.add(new MixJob(i, b, k, k * bytesPerClass));
    }
    return out;
  }

  /**
   * Draws {@code jobs} jobs over {@code datasets} datasets. Dataset {@code r} (from 0) is of the
   * input kind at position {@code r mod kinds} when the kinds are ordered by how many of
   * {@code benchmarks} read them (Wikipedia text, then movie ratings, ...), with a size class
   * drawn by Equation 3 (no two datasets alike); its popularity follows a Zipf law of exponent
   * {@code popularity} over {@code r}. Each job picks a dataset by popularity, then uniformly one
   * of the benchmarks that read its kind and belong to the shuffle class whose turn it is (light,
   * medium, heavy, in rotation over the jobs), or of all its kind's readers when none belongs to
   * it: a short mix then covers the three classes, as the paper's 13 benchmarks do.
   *
   * @param datasets how many datasets the mix reads, at most the kinds times the classes
   * @param popularity the Zipf exponent over the datasets (0: uniform)
   */
  public static List<MixJob> reuse(List<PumaBenchmark> benchmarks, int jobs, int datasets,
      double popularity, int classes, double exponent, long bytesPerClass, long seed) {
    if (jobs < 1 || classes < 1 || bytesPerClass < 1 || benchmarks.isEmpty() || datasets < 1) {
      throw new IllegalArgumentException("A mix needs jobs >= 1, datasets >= 1, size classes >= 1,"
          + " bytes per class >= 1 and at least one benchmark; got " + jobs + ", " + datasets
          + ", " + classes + ", " + bytesPerClass + ", " + benchmarks.size());
    }
    Map<DatasetKind, List<PumaBenchmark>> readers = new TreeMap<>();
    benchmarks.forEach(b -> readers.computeIfAbsent(b.inputKind(), k -> new ArrayList<>()).add(b));
    List<DatasetKind> kinds = new ArrayList<>(readers.keySet());
    kinds.sort(Comparator.comparingInt((DatasetKind k) -> -readers.get(k).size()));
    if (datasets > kinds.size() * classes) {
      throw new IllegalArgumentException("Only " + kinds.size() * classes + " distinct datasets "
          + "(" + kinds.size() + " input kinds x " + classes + " size classes); got " + datasets);
    }
    ZipfDistribution sizes = new ZipfDistribution(classes, exponent);
    ZipfDistribution ranks = new ZipfDistribution(datasets, popularity);
    SeededRandom random = new SeededRandom(seed);
    List<DatasetKind> kindOf = new ArrayList<>();
    List<Integer> classOf = new ArrayList<>();
    for (int r = 0; r < datasets; r++) {
      DatasetKind kind = kinds.get(r % kinds.size());
      int k = sizes.sample(random) + 1;
      while (taken(kindOf, classOf, kind, k)) {
        k = k % classes + 1;
      }
      kindOf.add(kind);
      classOf.add(k);
    }
    List<MixJob> out = new ArrayList<>(jobs);
    ShuffleClass[] turns = ShuffleClass.values();
    for (int i = 0; i < jobs; i++) {
      int r = ranks.sample(random);
      ShuffleClass turn = turns[i % turns.length];
      List<PumaBenchmark> candidates = readers.get(kindOf.get(r)).stream()
          .filter(b -> b.shuffleClass() == turn).toList();
      if (candidates.isEmpty()) {
        candidates = readers.get(kindOf.get(r));
      }
      PumaBenchmark b = candidates.get(random.nextInt(candidates.size()));
      int k = classOf.get(r);
      out.add(new MixJob(i, b, k, k * bytesPerClass));
    }
    return out;
  }

  /**
   * Draws {@code jobs} jobs over one hot dataset and one-off scans, the case an input cache's
   * admission control is for. The hot dataset is of the input kind most benchmarks read
   * (Wikipedia text, as the paper's jobs mostly read one dump) and of size class {@code k}; the
   * hot jobs take the shuffle classes its readers cover in turn (light, medium), each a reader of
   * that class drawn uniformly. After every {@code scanEvery} hot jobs comes a scan: the next
   * shuffle-heavy benchmark of another kind, in {@code benchmarks}' order, over a dataset of its
   * own of size class {@code scanClass} (the next class up when that dataset was scanned
   * already), read by no other job of the mix. An admit-all cache that holds the hot dataset
   * gives room to each scan; one that admits by frequency keeps the hot dataset.
   *
   * @param k the hot dataset's size class
   * @param scanClass the scans' size class
   * @param scanEvery hot jobs between two scans
   */
  public static List<MixJob> hotWithScans(List<PumaBenchmark> benchmarks, int jobs, int k,
      int scanClass, int scanEvery, long bytesPerClass, long seed) {
    if (jobs < 1 || k < 1 || scanClass < 1 || scanEvery < 1 || bytesPerClass < 1
        || benchmarks.isEmpty()) {
      throw new IllegalArgumentException("A mix needs jobs >= 1, size classes >= 1, a scan "
          + "every >= 1 hot jobs, bytes per class >= 1 and at least one benchmark; got " + jobs
          + ", " + k + ", " + scanClass + ", " + scanEvery + ", " + bytesPerClass + ", "
          + benchmarks.size());
    }
    Map<DatasetKind, List<PumaBenchmark>> readers = new TreeMap<>();
    benchmarks.forEach(b -> readers.computeIfAbsent(b.inputKind(), x -> new ArrayList<>()).add(b));
    DatasetKind hot = readers.keySet().stream()
        .max(Comparator.comparingInt((DatasetKind x) -> readers.get(x).size())).orElseThrow();
    List<ShuffleClass> hotTurns = new ArrayList<>();
    for (ShuffleClass c : ShuffleClass.values()) {
      if (readers.get(hot).stream().anyMatch(b -> b.shuffleClass() == c)) {
        hotTurns.add(c);
      }
    }
    List<PumaBenchmark> scanners = benchmarks.stream()
        .filter(b -> b.inputKind() != hot && b.shuffleClass() == ShuffleClass.HEAVY).toList();
    if (scanners.isEmpty()) {
      scanners = benchmarks.stream().filter(b -> b.inputKind() != hot).toList();
    }
    SeededRandom random = new SeededRandom(seed);
    List<MixJob> out = new ArrayList<>(jobs);
    List<String> scanned = new ArrayList<>();
    int hotJobs = 0;
    int scans = 0;
    for (int i = 0; i < jobs; i++) {
      if (hotJobs > 0 && hotJobs % scanEvery == 0 && !scanners.isEmpty()
          && (out.isEmpty() || out.get(out.size() - 1).kind() == hot)) {
        PumaBenchmark b = scanners.get(scans++ % scanners.size());
        int c = scanClass;
        while (scanned.contains(b.inputKind() + "-" + c)) {
          c++;
        }
        scanned.add(b.inputKind() + "-" + c);
        out.add(new MixJob(i, b, c, c * bytesPerClass));
        continue;
      }
      ShuffleClass turn = hotTurns.get(hotJobs % hotTurns.size());
      List<PumaBenchmark> candidates = readers.get(hot).stream()
          .filter(b -> b.shuffleClass() == turn).toList();
      out.add(new MixJob(i, candidates.get(random.nextInt(candidates.size())), k,
          k * bytesPerClass));
      hotJobs++;
    }
    return out;
  }

  /** The hot-dataset mix over all 13 benchmarks. */
  public static List<MixJob> hotWithScans(int jobs, int k, int scanClass, int scanEvery,
      long bytesPerClass, long seed) {
    return hotWithScans(PumaBenchmarks.all(), jobs, k, scanClass, scanEvery, bytesPerClass,
        seed);
  }

  private static boolean taken(List<DatasetKind> kinds, List<Integer> classes, DatasetKind kind,
      int k) {
    for (int i = 0; i < kinds.size(); i++) {
      if (kinds.get(i) == kind && classes.get(i) == k) {
        return true;
      }
    }
    return false;
  }

  /** The reuse mix over all 13 benchmarks. */
  public static List<MixJob> reuse(int jobs, int datasets, double popularity, int classes,
      double exponent, long bytesPerClass, long seed) {
    return reuse(PumaBenchmarks.all(), jobs, datasets, popularity, classes, exponent,
        bytesPerClass, seed);
  }

  /** The mix of every benchmark in turn over all 13 benchmarks. */
  public static List<MixJob> suite(int jobs, int classes, double exponent, long bytesPerClass,
      long seed) {
    return suite(PumaBenchmarks.all(), jobs, classes, exponent, bytesPerClass, seed);
  }

  /** The paper's mix over all 13 benchmarks. */
  public static List<MixJob> paper(int jobs, int classes, double exponent, long bytesPerClass,
      long seed) {
    return draw(PumaBenchmarks.all(), jobs, classes, exponent, bytesPerClass, seed);
  }
}
