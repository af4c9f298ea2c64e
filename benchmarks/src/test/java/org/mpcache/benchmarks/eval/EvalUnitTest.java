package org.mpcache.benchmarks.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.mpcache.benchmarks.puma.ShuffleClass;
import org.mpcache.tiers.TierConfigKeys;
import org.mpcache.common.MpCacheConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mix, the command line and the report's arithmetic, without a cluster. */
class EvalUnitTest {

  @Test
  void paperMix_sameSeed_sameJobsAndZipfSkewedClasses() {
    List<MixJob> a = EvalMix.paper(2000, 4, 1.0, 1000, 5);
    assertThat(EvalMix.paper(2000, 4, 1.0, 1000, 5)).isEqualTo(a);
    assertThat(a).allMatch(j -> j.k() >= 1 && j.k() <= 4 && j.bytes() == 1000L * j.k());
    long k1 = a.stream().filter(j -> j.k() == 1).count();
    long k4 = a.stream().filter(j -> j.k() == 4).count();
    // Equation 3 with s = 1, N = 4: P(1) = 0.48, P(4) = 0.12.
    assertThat(k1).isBetween(880L, 1040L);
    assertThat(k4).isBetween(190L, 290L);
    assertThat(a.stream().map(j -> j.benchmark().name()).distinct().count()).isEqualTo(13);
  }

  @Test
  void reuseMix_fewDatasets_readBySeveralBenchmarksByPopularity() {
    List<MixJob> a = EvalMix.reuse(2000, 4, 1.0, 4, 1.0, 1000, 5);
    assertThat(EvalMix.reuse(2000, 4, 1.0, 4, 1.0, 1000, 5)).isEqualTo(a);
    assertThat(a).allMatch(j -> j.benchmark().inputKind() == j.kind()
        && j.bytes() == 1000L * j.k());
    Map<String, Long> reads = a.stream().collect(Collectors.groupingBy(MixJob::dataset,
        Collectors.counting()));
    assertThat(reads).hasSize(4);
    // Zipf s = 1 over 4 datasets: the first (Wikipedia text, the kind most benchmarks read) gets
    // 48% of the jobs, the fourth 12%.
    String first = a.stream().filter(j -> j.kind().kindName().equals("wikipedia"))
        .map(MixJob::dataset).findFirst().orElseThrow();
    assertThat(reads.get(first)).isBetween(880L, 1040L);
    assertThat(a.stream().filter(j -> j.dataset().equals(first)).map(j -> j.benchmark().name())
        .distinct().count()).isEqualTo(5);
    MixReuse reuse = MixReuse.of(a);
    assertThat(reuse.datasets()).isEqualTo(4);
    assertThat(reuse.inputBytes()).isEqualTo(a.stream().mapToLong(MixJob::bytes).sum());
    assertThat(reuse.reReadBytes() + reuse.workingSetBytes()).isEqualTo(reuse.inputBytes());
    assertThat(reuse.reReadShare()).isGreaterThan(0.99);
    assertThatThrownBy(() -> EvalMix.reuse(5, 100, 1.0, 2, 1.0, 10, 1))
        .hasMessageContaining("distinct datasets");
  }

  @Test
  void hotMix_scansAfterEveryNHotReads_eachScanReadOnceByAHeavyJob() {
    List<MixJob> a = EvalMix.hotWithScans(11, 2, 1, 3, 1000, 7);
    assertThat(EvalMix.hotWithScans(11, 2, 1, 3, 1000, 7)).isEqualTo(a);
    // Three hot jobs, a scan, three hot jobs, a scan, ...
    List<MixJob> scans = List.of(a.get(3), a.get(7));
    assertThat(a).filteredOn(j -> !scans.contains(j))
        .allMatch(j -> j.dataset().equals("wikipedia-k2") && j.bytes() == 2000);
    assertThat(scans).allMatch(j -> j.benchmark().shuffleClass() == ShuffleClass.HEAVY
        && !j.kind().kindName().equals("wikipedia") && j.k() == 1);
    assertThat(scans).extracting(MixJob::dataset).doesNotHaveDuplicates();
    // The hot jobs take the shuffle classes Wikipedia's readers cover in turn.
    assertThat(a.subList(0, 3)).extracting(j -> j.benchmark().shuffleClass())
        .containsExactly(ShuffleClass.LIGHT, ShuffleClass.MEDIUM, ShuffleClass.LIGHT);
    // Scans take the heavy benchmarks in their order: k-means first, then self-join.
    assertThat(scans).extracting(j -> j.benchmark().name())
        .containsExactly("k-means", "self-join");
    assertThatThrownBy(() -> EvalMix.hotWithScans(4, 0, 1, 2, 10, 1))
        .hasMessageContaining("size classes >= 1");
  }

  @Test
  void defaultMix_hotDatasetFitsTheInputCacheAScanBesideItDoesNot() {
    EvalMain m = new EvalMain();
    List<MixJob> mix = m.mix();
    assertThat(mix).extracting(j -> j.benchmark().name() + "@" + j.dataset()).containsExactly(
        "grep@wikipedia-k3", "word-count@wikipedia-k3", "k-means@movie-ratings-k2",
        "grep@wikipedia-k3");
    MixReuse reuse = MixReuse.of(mix);
    assertThat(mix).extracting(j -> j.benchmark().shuffleClass())
        .contains(ShuffleClass.LIGHT, ShuffleClass.MEDIUM, ShuffleClass.HEAVY);
    long hot = mix.get(0).bytes();
    long block = m.blockMb << 20;
    // A dataset is its size and a few bytes (the generator ends on a whole record): one more,
    // tiny, block. The blocks go to the nodes in turn: the fullest node holds the larger half of
    // the full blocks and may hold the tiny one, beside the jobs' staging files.
    long hotOnFullestNode = (hot / block + 1) / m.nodes * block + (1 << 20);
    long cachePerNode = m.cacheMb << 20;
    assertThat(cachePerNode).as("the Input Cache holds the hot dataset")
        .isGreaterThanOrEqualTo(hotOnFullestNode);
    // The master sizes a dataset it has not cached by its bytes, which must fit the cache in all
    // for the hot dataset to be admitted, and a scan beside it must not.
    assertThat(cachePerNode * m.nodes).as("the master admits the hot dataset")
        .isGreaterThanOrEqualTo(hot + (1 << 20));
    assertThat(cachePerNode * m.nodes).as("but not a scan beside it")
        .isLessThan(hot + mix.get(2).bytes());
    assertThat(m.memoryCacheMb).isLessThan(m.cacheMb);
    assertThat(m.describeReuse(reuse)).contains("re-reads: 55% of input bytes")
        .contains("36 MiB x 2 nodes = 90%");
  }

  @Test
  void compareMix_twoDatasetsReReadByMostJobs_bothFitTheInputCache() {
    EvalMain m = new EvalMain();
    m.parse(new String[] {"--compare"});
    List<MixJob> mix = m.mix();
    assertThat(mix).hasSize(8);
    assertThat(mix).extracting(j -> j.benchmark().shuffleClass())
        .contains(ShuffleClass.LIGHT, ShuffleClass.MEDIUM, ShuffleClass.HEAVY);
    MixReuse reuse = MixReuse.of(mix);
    assertThat(reuse.datasets()).isEqualTo(2);
    assertThat(mix.stream().map(MixJob::dataset).distinct())
        .containsExactlyInAnyOrder("wikipedia-k3", "movie-ratings-k1");
    // Two first reads among eight jobs; the rest read a dataset an earlier job read.
    assertThat(reuse.reReadShare()).isGreaterThan(0.75);
    // Each dataset is its size and one more, tiny, block; the fullest node holds the larger half
    // of each dataset's full blocks and may hold the tiny ones: the Input Cache holds both, as the
    // paper's 80 GB per node hold its popular datasets.
    long block = m.blockMb << 20;
    long perNode = 0;
    for (MixJob j : mix.stream().filter(distinctBy(MixJob::dataset)).toList()) {
      perNode += (j.bytes() / block + m.nodes - 1) / m.nodes * block + (1 << 20);
    }
    assertThat(m.cacheMb << 20).as("the Input Cache holds both datasets")
        .isGreaterThanOrEqualTo(perNode);
    assertThat(m.memoryCacheMb * 9).isEqualTo(m.cacheMb);
    assertThat(m.describeReuse(reuse)).contains("72 MiB x 2 nodes");
  }

  private static <T> java.util.function.Predicate<T> distinctBy(
      java.util.function.Function<T, ?> key) {
    java.util.Set<Object> seen = new java.util.HashSet<>();
    return t -> seen.add(key.apply(t));
  }

  @Test
  void mixJob_sameKindAndClass_shareDataset() {
    List<MixJob> a = EvalMix.paper(200, 2, 1.0, 10, 1);
    MixJob grep = a.stream().filter(j -> j.benchmark().name().equals("grep") && j.k() == 1)
        .findFirst().orElseThrow();
    MixJob wc = a.stream().filter(j -> j.benchmark().name().equals("word-count") && j.k() == 1)
        .findFirst().orElseThrow();
    assertThat(grep.dataset()).isEqualTo(wc.dataset()).isEqualTo("wikipedia-k1");
  }

  @Test
  void modes_ablationAndBaselines_differOnlyWhereDocumented() {
    assertThat(EvalMode.of("mpcache-input").caches()).isTrue();
    assertThat(EvalMode.MPCACHE_INPUT.localTier()).isEqualTo("hdd");
    assertThat(EvalMode.MPCACHE_INPUT.policy()).isEqualTo(EvalMode.MPCACHE.policy())
        .isEqualTo("mpcache");
    assertThat(EvalMode.of("mpcache-localized").caches()).isFalse();
    assertThat(EvalMode.MPCACHE_LOCALIZED.localTier()).isEqualTo("ssd+hdd");
    assertThat(EvalMode.MPCACHE_LOCALIZED.ssdSlave()).isTrue();
    assertThat(EvalMode.SSD_LRU.policy()).isEqualTo("lru");
    assertThat(EvalMode.SSD_LRU.cacheTier()).isEqualTo(EvalMode.MPCACHE.cacheTier())
        .isEqualTo("ssd");
    assertThat(EvalMode.SSD_LRU.localTier()).isEqualTo("hdd");
    assertThat(EvalMode.PACMAN.cacheTier()).isEqualTo("memory");
    assertThat(EvalMode.HADOOP.ssdSlave()).isFalse();
    assertThat(EvalMode.ALL_SSD.dataOnSsd()).isTrue();
  }

  @Test
  void parse_badArguments_nameTheArgument() {
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"--jobs", "x"}))
        .hasMessageContaining("--jobs").hasMessageContaining("'x'");
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"--modes", "hadoop,spark"}))
        .hasMessageContaining("spark").hasMessageContaining("all-ssd");
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"--bogus", "1"}))
        .hasMessageContaining("--bogus");
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"--out"}))
        .hasMessageContaining("--out");
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"-D", "novalue"}))
        .hasMessageContaining("key=value").hasMessageContaining("novalue");
    assertThatThrownBy(() -> new EvalMain().parse(new String[] {"--node-cores", "0"}))
        .hasMessageContaining("--node-cores").hasMessageContaining("0");
  }

  @Test
  void shareOfNode_oneCoreOfThePapersNode_loadedHddAndSsdRaid() {
    Configuration c = new Configuration(false);
    c.set(TierConfigKeys.HDD_IOPS_KEY, "100");
    TierLayouts.shareOfNode(c, 16);
    // Table 1: 43 GB in 222 s on 7 nodes is 27.7 MB/s per node; 28 MB/s over 16 cores.
    assertThat(c.getLong(TierConfigKeys.HDD_READ_BPS_KEY, 0)).isEqualTo(1_750_000);
    assertThat(c.getLong(TierConfigKeys.HDD_WRITE_BPS_KEY, 0)).isEqualTo(1_750_000);
    // Two SSDs in RAID0 over 16 cores: 2 x 500 MiB/s / 16 and 2 x 20,000 / 16.
    assertThat(c.getLong(TierConfigKeys.SSD_WRITE_BPS_KEY, 0))
        .isEqualTo(2 * TierConfigKeys.SSD_WRITE_BPS_DEFAULT / 16);
    assertThat(c.getInt(TierConfigKeys.SSD_IOPS_KEY, 0)).isEqualTo(2500);
    assertThat(c.getInt(TierConfigKeys.HDD_IOPS_KEY, 0)).as("set by the user").isEqualTo(100);
    Configuration withDefaults = MpCacheConfiguration.create(TierConfigKeys.DEFAULT_RESOURCE);
    TierLayouts.shareOfNode(withDefaults, 16);
    assertThat(withDefaults.getInt(TierConfigKeys.HDD_IOPS_KEY, 0))
        .as("the tiers' defaults file gives a default, not a setting").isEqualTo(8);
    Configuration whole = new Configuration(false);
    TierLayouts.shareOfNode(whole, 1);
    assertThat(whole.getInt(TierConfigKeys.HDD_IOPS_KEY, 0))
        .isEqualTo(TierConfigKeys.HDD_IOPS_DEFAULT);
    assertThat(whole.getLong(TierConfigKeys.HDD_READ_BPS_KEY, 0)).isEqualTo(28_000_000);
    assertThatThrownBy(() -> TierLayouts.shareOfNode(new Configuration(false), 0))
        .hasMessageContaining("at least 1");
  }

  @Test
  void parse_full_thenOverride() {
    EvalMain m = new EvalMain();
    m.parse(new String[] {"--full", "--jobs", "7", "--modes", "hadoop,pacman",
        "-D", "mpcache.tiers.hdd.iops=8"});
    assertThat(m.settings).containsEntry("mpcache.tiers.hdd.iops", "8");
    assertThat(m.classes).isEqualTo(2);
    assertThat(m.mixName).as("--full runs every benchmark in turn").isEqualTo("suite");
    assertThat(m.sweepCacheMb).containsExactly(48L, 96L, 192L);
    assertThat(m.jobs).isEqualTo(7);
    assertThat(m.modes).containsExactly(EvalMode.HADOOP, EvalMode.PACMAN);
    assertThat(m.repeat).isEqualTo(2);
    EvalMain compare = new EvalMain();
    compare.parse(new String[] {"--compare"});
    assertThat(compare.modes).containsExactly(EvalMode.values());
    assertThat(compare.repeat).isEqualTo(3);
    compare.parse(new String[] {"--compare", "--repeat", "5"});
    assertThat(compare.repeat).isEqualTo(5);
    assertThat(new EvalMain().modes).containsExactly(EvalMode.HADOOP, EvalMode.MPCACHE,
        EvalMode.SSD_LRU);
    EvalMain full = new EvalMain();
    full.parse(new String[] {"--full"});
    assertThat(full.modes).containsExactly(EvalMode.HADOOP, EvalMode.MPCACHE);
    assertThat(full.sweepCacheMb).containsExactly(48L, 96L, 192L);
  }

  @Test
  void suiteMix_everyBenchmarkEachRound_classesByZipf() {
    List<MixJob> a = EvalMix.suite(2600, 4, 1.0, 1000, 5);
    assertThat(EvalMix.suite(2600, 4, 1.0, 1000, 5)).isEqualTo(a);
    assertThat(a).allMatch(j -> j.k() >= 1 && j.k() <= 4 && j.bytes() == 1000L * j.k());
    // Each round of 13 jobs runs each benchmark once, in an order of its own.
    for (int r = 0; r < 200; r++) {
      assertThat(a.subList(13 * r, 13 * r + 13).stream().map(j -> j.benchmark().name())
          .distinct().count()).isEqualTo(13);
    }
    assertThat(a.subList(0, 13)).extracting(j -> j.benchmark().name())
        .isNotEqualTo(a.subList(13, 26).stream().map(j -> j.benchmark().name()).toList());
    // Equation 3 with s = 1, N = 4: P(1) = 0.48, P(4) = 0.12.
    assertThat(a.stream().filter(j -> j.k() == 1).count()).isBetween(1150L, 1350L);
    assertThat(a.stream().filter(j -> j.k() == 4).count()).isBetween(250L, 380L);
    // A partial round still has no benchmark twice.
    assertThat(EvalMix.suite(7, 2, 1.0, 10, 1).stream().map(j -> j.benchmark().name())
        .distinct().count()).isEqualTo(7);
  }

  @Test
  void fullMix_everyBenchmarkOnce_sweepFromBelowToAboveTheWorkingSet() {
    EvalMain m = new EvalMain();
    m.parse(new String[] {"--full"});
    List<MixJob> mix = m.mix();
    assertThat(mix).hasSize(13);
    assertThat(mix.stream().map(j -> j.benchmark().name()).distinct().count()).isEqualTo(13);
    MixReuse reuse = MixReuse.of(mix);
    // Each dataset is its size and one more, tiny, block; blocks go to the nodes in turn.
    long block = m.blockMb << 20;
    long perNode = 0;
    for (MixJob j : mix.stream().filter(distinctBy(MixJob::dataset)).toList()) {
      perNode += (j.bytes() / block + m.nodes - 1) / m.nodes * block + (1 << 20);
    }
    assertThat(m.sweepCacheMb.get(2) << 20).as("the largest cache holds the working set")
        .isGreaterThanOrEqualTo(perNode);
    assertThat(m.sweepCacheMb.get(1) << 20).as("the middle one does not")
        .isLessThan(perNode);
    assertThat(m.sweepCacheMb.get(0) << 20).as("the smallest under half of it")
        .isLessThan(perNode / 2);
    assertThat(reuse.reReadShare()).isGreaterThan(0.3);
  }

  @Test
  void speedup_meanOfPerJobRatios_overJobsBothRanWell() {
    List<JobResult> rs = List.of(
        result("hadoop", 0, 0, 10, true), result("hadoop", 0, 1, 30, true),
        result("hadoop", 0, 2, 30, true),
        result("mpcache", 64, 0, 5, true), result("mpcache", 64, 1, 30, true),
        result("mpcache", 64, 2, 1, false),
        result("pacman", 32, 0, 8, true), result("pacman", 32, 1, 20, true),
        result("pacman", 32, 2, 20, true));
    EvalReport report = new EvalReport(rs, List.of("tiers"), List.of("a notice"));
    assertThat(report.runs()).containsExactly("hadoop", "mpcache-64mb", "pacman-32mb");
    assertThat(report.speedup("mpcache-64mb", "hadoop").getAsDouble()).isEqualTo(1.5);
    assertThat(report.speedup("mpcache-64mb", "pacman-32mb").getAsDouble())
        .isCloseTo((8 / 5.0 + 20 / 30.0) / 2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(report.speedup("all-ssd", "hadoop")).isEmpty();
    assertThat(report.summary()).contains("1.50x").contains("1.13x").contains("failed")
        .contains("a notice").contains("2.09x").contains("1.79x");
  }

  @Test
  void write_cacheSweep_drawsFigure5AndFigure3(@TempDir Path dir) throws Exception {
    List<JobResult> rs = List.of(
        result("hadoop", 0, 0, 10, true), result("hadoop", 0, 1, 20, true),
        result("mpcache", 16, 0, 10, true), result("mpcache", 16, 1, 20, true),
        result("mpcache", 64, 0, 5, true), result("mpcache", 64, 1, 10, true));
    EvalReport report = new EvalReport(rs, List.of("tiers"), List.of());
    List<Path> plots = report.write(dir);
    assertThat(plots).extracting(p -> p.getFileName().toString())
        .containsExactly("fig3-map.png", "fig3-reduce.png", "fig5-speedup.png");
    assertThat(ImageIO.read(dir.resolve("fig5-speedup.png").toFile()).getWidth()).isEqualTo(800);
    assertThat(Files.readAllLines(dir.resolve("runs.csv"))).hasSize(4)
        .anyMatch(l -> l.startsWith("mpcache-64mb,mpcache,64,1,2,2,") && l.contains(",2.0000,"));
    // The summary compares against the largest cache of the sweep.
    assertThat(report.summary()).containsPattern("over hadoop\\s+2\\.00x");
  }

  @Test
  void write_classesOfTheMix_speedupPerShuffleClassBesideThePapers(@TempDir Path dir)
      throws Exception {
    List<JobResult> rs = List.of(
        result("hadoop", 0, 1, 0, "grep", 10, true), result("hadoop", 0, 1, 1, "tera-sort", 40,
            true),
        result("mpcache", 16, 1, 0, "grep", 10, true), result("mpcache", 16, 1, 1, "tera-sort",
            40, true),
        result("mpcache", 64, 1, 0, "grep", 5, true), result("mpcache", 64, 1, 1, "tera-sort",
            20, true),
        result("hadoop", 0, 2, 0, "grep", 12, true), result("hadoop", 0, 2, 1, "tera-sort", 40,
            true),
        result("mpcache", 16, 2, 0, "grep", 12, true), result("mpcache", 16, 2, 1, "tera-sort",
            40, true),
        result("mpcache", 64, 2, 0, "grep", 4, true), result("mpcache", 64, 2, 1, "tera-sort",
            10, true));
    EvalReport report = new EvalReport(rs, List.of("tiers"), List.of());
    report.write(dir);
    // grep: repetition 1 10/5 = 2, repetition 2 12/4 = 3, ratio of means 11/4.5.
    assertThat(report.summary()).contains("By shuffle class")
        .containsPattern("light\\s+1 mpcache-64mb\\s+2\\.44x \\[2\\.00-3\\.00\\]")
        .containsPattern("heavy\\s+1 mpcache-64mb\\s+2\\.67x \\[2\\.00-4\\.00\\]")
        .containsPattern("light\\s+paper: mpcache\\s+2\\.23x\\s+2\\.42x\\s+-");
    assertThat(Files.readAllLines(dir.resolve("classes.csv"))).contains(
        "mpcache-64mb,mpcache,64,light,1,job,2,2.4444,2.0000,3.0000,2.2300",
        "mpcache-64mb,mpcache,64,heavy,1,reduce,2,2.6667,2.0000,4.0000,3.8700",
        "mpcache-16mb,mpcache,16,light,1,map,2,1.0000,1.0000,1.0000,2.4200");
    // Figure 5: a line for the mode and one per class, each point with its range.
    assertThat(Files.readAllLines(dir.resolve("fig5.csv"))).contains(
        "mpcache-64mb,mpcache,64,all,2,2.5556,2.0000,3.5000,0.9444",
        "mpcache-64mb,mpcache,64,heavy,2,2.6667,2.0000,4.0000,1.3333",
        "mpcache-16mb,mpcache,16,light,2,1.0000,1.0000,1.0000,0.0000");
    assertThat(ImageIO.read(dir.resolve("fig5-speedup.png").toFile()).getWidth()).isEqualTo(800);
  }

  @Test
  void spread_threeValues_meanRangeAndStudentInterval() {
    Spread s = Spread.of(List.of(3.0, 1.0, 2.0));
    assertThat(s.mean()).isEqualTo(2.0);
    assertThat(s.min()).isEqualTo(1.0);
    assertThat(s.max()).isEqualTo(3.0);
    // sd = 1, t(0.975, 2 df) = 4.303: 4.303 / sqrt(3).
    assertThat(s.ci95()).isCloseTo(4.303 / Math.sqrt(3), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(Spread.of(List.of(1.0, 2.0)).ci95()).isNaN();
    assertThat(Spread.of(List.of(1.0, 4.0)).coveringBar()).isEqualTo(1.5);
    assertThat(Spread.of(List.of(1.0, 2.0, 6.0)).coveringBar()).isEqualTo(3.0);
    assertThat(Spread.of(List.of()).present()).isFalse();
  }

  @Test
  void write_twoRepetitions_statsAreMeansOfTheRowsWithRanges(@TempDir Path dir)
      throws Exception {
    List<JobResult> rs = List.of(
        result("hadoop", 0, 1, 0, 10, true), result("hadoop", 0, 1, 1, 20, true),
        result("mpcache", 64, 1, 0, 5, true), result("mpcache", 64, 1, 1, 20, true),
        result("hadoop", 0, 2, 0, 14, true), result("hadoop", 0, 2, 1, 20, true),
        result("mpcache", 64, 2, 0, 7, true), result("mpcache", 64, 2, 1, 10, false));
    EvalReport report = new EvalReport(rs, List.of("tiers"), List.of());
    // Ratio of means: job 0 12/6, job 1 20/20 (repetition 2 failed).
    assertThat(report.speedup("mpcache-64mb", "hadoop").getAsDouble()).isEqualTo(1.5);
    // Repetition 1: (2 + 1) / 2; repetition 2: job 0 only, 2.
    Spread range = report.speedupSpread("mpcache-64mb", "hadoop");
    assertThat(range.min()).isEqualTo(1.5);
    assertThat(range.max()).isEqualTo(2.0);
    report.write(dir);
    List<String> jobs = Files.readAllLines(dir.resolve("jobs.csv"));
    assertThat(jobs).hasSize(9);
    assertThat(jobs.get(0)).startsWith("mode,cache_mb_per_node,repetition,job,");
    List<String> stats = Files.readAllLines(dir.resolve("job-stats.csv"));
    assertThat(stats).hasSize(5).contains(
        "mpcache-64mb,mpcache,64,0,grep,1,wikipedia-k1,2,2,6.0000,5.0000,7.0000,,3.0000,2.5000,"
            + "3.5000,1.5000,1.2500,1.7500,2.0000,2.0000,2.0000,0.6000",
        "mpcache-64mb,mpcache,64,1,grep,1,wikipedia-k1,2,1,20.0000,20.0000,20.0000,,10.0000,"
            + "10.0000,10.0000,5.0000,5.0000,5.0000,1.0000,1.0000,1.0000,0.6000");
    List<String> runs = Files.readAllLines(dir.resolve("runs.csv"));
    assertThat(runs.get(2)).startsWith("mpcache-64mb,mpcache,64,2,2,3,21.000,17.000,25.000,,")
        .contains(",1.5000,1.5000,2.0000,,");
    assertThat(Files.readString(dir.resolve("job-stats.json"))).contains("\"seconds_min\": 5.0000");
    // Figure 3's bars: each repetition's mean map time over hadoop's mean map time (8.0).
    assertThat(Files.readAllLines(dir.resolve("fig3.csv"))).contains(
        "map,hadoop,grep,2,1.0000,0.9375,1.0625,0.0625",
        "map,mpcache-64mb,grep,2,0.6094,0.4375,0.7813,0.1719");
    assertThat(report.summary()).contains("Repetitions: 2 per run")
        .contains("1.50x [1.50-2.00]").contains("6.0 [5.0-7.0]").contains("no 95% interval");
  }

  private static JobResult result(String mode, long mb, int index, double seconds, boolean ok) {
    return result(mode, mb, 1, index, seconds, ok);
  }

  private static JobResult result(String mode, long mb, int repetition, int index, double seconds,
      boolean ok) {
    return result(mode, mb, repetition, index, "grep", seconds, ok);
  }

  private static JobResult result(String mode, long mb, int repetition, int index,
      String benchmark, double seconds, boolean ok) {
    return new JobResult(mode, mb, repetition, index, benchmark, 1, "wikipedia-k1", 100, ok,
        seconds,
        seconds - 1, seconds / 2, seconds / 4, seconds / 3, seconds / 5, 3, 2, 100, mb > 0 ? 60 : 0, mb > 0 ? 40 : 0, "hdd",
        mb > 0 ? "ssd" : "none", 10, "hdd", 0, 0, 1, 1);
  }
}
