package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties every policy must keep over random traces, written once and run against every name
 * {@link CachePolicies#names()} lists. {@link ClusterHarness} fails a trace on the spot when a
 * slave would overfill or is told to evict a block it does not hold.
 */
class CachePolicyPropertiesTest {

  @Provide
  Arbitrary<String> policies() {
    return Arbitraries.of(CachePolicies.names());
  }

  @Provide
  Arbitrary<String> datasetPolicies() {
    return Arbitraries.of(CachePolicies.names()).filter(
        n -> CachePolicies.create(n, PolicyParameters.defaults()) instanceof DatasetCachePolicy);
  }

  @Property(tries = 300)
  void capacityNeverExceeded(@ForAll("policies") String name, @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int slaves, @ForAll @IntRange(min = 2, max = 10) int cap,
      @ForAll boolean drainEveryStep) {
    new ClusterHarness(policy(name), slaves, cap, drainEveryStep, false).run(seed, 60);
  }

  /**
   * Whole-dataset eviction: once every slave has carried out its pending evictions, no slave keeps
   * a block of a dataset that lost a block to eviction in the same step. (The block policies never
   * evict by dataset, so the property is about the dataset policies.)
   */
  @Property(tries = 300)
  void evictionRemovesWholeDatasetFromEverySlave(@ForAll("datasetPolicies") String name,
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int slaves,
      @ForAll @IntRange(min = 2, max = 10) int cap) {
    new ClusterHarness(policy(name), slaves, cap, true, true).run(seed, 60);
  }

  @Property(tries = 100)
  void sameSeedSameDecisions(@ForAll("policies") String name, @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int slaves, @ForAll @IntRange(min = 2, max = 10) int cap,
      @ForAll boolean drainEveryStep) {
    List<String> first =
        new ClusterHarness(policy(name), slaves, cap, drainEveryStep, false).run(seed, 60);
    List<String> second =
        new ClusterHarness(policy(name), slaves, cap, drainEveryStep, false).run(seed, 60);
    assertEquals(first, second);
  }

  /** Guards the properties against vacuity: the traces do make every caching policy evict. */
  @Example
  void harness_tightCache_makesEveryCachingPolicyEvict() {
    for (String name : CachePolicies.names()) {
      if (!name.equals(NullCachePolicy.NAME)) {
        List<String> log = new ClusterHarness(policy(name), 2, 3, true, false).run(7, 200);
        assertTrue(log.stream().anyMatch(line -> line.contains("evict=")), name);
      }
    }
  }

  private static CachePolicy policy(String name) {
    return CachePolicies.create(name, PolicyParameters.builder().auxiliaryCacheDatasets(3).build());
  }
}
