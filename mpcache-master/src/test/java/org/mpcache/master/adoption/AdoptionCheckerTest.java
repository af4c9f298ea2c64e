package org.mpcache.master.adoption;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.mpcache.common.Waits;
import org.mpcache.common.BlockKey;
import org.mpcache.master.arbitrator.HeldBlock;

/** The background check of adopted blocks: batches, one question per dataset, retries. */
class AdoptionCheckerTest {
  private final AtomicLong clock = new AtomicLong(1_000);
  private final Map<String, List<BlockKey>> dropped = new TreeMap<>();
  /** The datasets asked about, in order, with how many blocks each time. */
  private final List<String> asked = new ArrayList<>();
  private final Set<BlockKey> goneFromHdfs = new HashSet<>();
  private boolean nameNodeDown;

  private final GenerationStamps stamps = (datasetId, blocks) -> {
    asked.add(datasetId + ":" + blocks.size());
    if (nameNodeDown) {
      throw new ConnectException("Connection refused");
    }
    Set<BlockKey> stale = new HashSet<>(blocks);
    stale.retainAll(goneFromHdfs);
    return stale;
  };

  private AdoptionChecker checker(int batch) {
    return new AdoptionChecker(stamps,
        (slave, stale) -> dropped.computeIfAbsent(slave, s -> new ArrayList<>()).addAll(stale),
        batch, 60_000, clock::get);
  }

  private static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  private static HeldBlock held(long id, String dataset) {
    return new HeldBlock(key(id), 10, dataset, 4, dataset);
  }

  @Test
  void checkOnce_staleBlocksOnTwoSlaves_droppedPerSlaveOneQuestionPerDataset() {
    AdoptionChecker c = checker(100);
    c.enqueue("s1", List.of(held(1, "/a"), held(2, "/a"), held(3, "/b")));
    c.enqueue("s2", List.of(held(4, "/a")));
    goneFromHdfs.addAll(List.of(key(2), key(4)));
    assertEquals(3, c.pending("s1"));
    assertEquals(1, c.pending("s2"));
    assertEquals(4, c.checkOnce());
    assertEquals(List.of("/a:3", "/b:1"), asked);
    assertEquals(Map.of("s1", List.of(key(2)), "s2", List.of(key(4))), dropped);
    assertEquals(0, c.pending());
    assertEquals(0, c.pending("s1"));
  }

  @Test
  void checkOnce_asksAboutTheBlocksRecordedFile_neverTheDatasetPathsItsReaderNamed() {
    AdoptionChecker c = checker(100);
    // The dataset id is a reader's claim: any cluster, the whole namespace.
    c.enqueue("s1", List.of(new HeldBlock(key(1), 10, "hdfs://elsewhere:8020/,/", 4,
        "/data/in/part-00000"), new HeldBlock(key(2), 10, "hdfs://elsewhere:8020/,/", 4,
        "/data/in/part-00001")));
    goneFromHdfs.add(key(2));
    assertEquals(2, c.checkOnce());
    assertEquals(List.of("/data/in/part-00000:1", "/data/in/part-00001:1"), asked);
    assertEquals(Map.of("s1", List.of(key(2))), dropped);
  }

  @Test
  void enqueue_blockWithoutARecordedFile_isNotChecked() {
    AdoptionChecker c = checker(100);
    c.enqueue("s1", List.of(new HeldBlock(key(1), 10, "/", 4, null)));
    assertEquals(0, c.pending());
    assertEquals(0, c.checkOnce());
    assertEquals(List.of(), asked);
  }

  @Test
  void checkOnce_moreThanABatch_takesABatchAPass() {
    AdoptionChecker c = checker(2);
    c.enqueue("s1", List.of(held(1, "/a"), held(2, "/a"), held(3, "/a")));
    assertEquals(2, c.checkOnce());
    assertEquals(1, c.pending());
    assertEquals(1, c.checkOnce());
    assertEquals(List.of("/a:2", "/a:1"), asked);
  }

  @Test
  void checkOnce_nameNodeDown_nothingDroppedAndAskedAgainAfterTheRetryInterval() {
    AdoptionChecker c = checker(100);
    c.enqueue("s1", List.of(held(1, "/a"), held(2, "/b")));
    goneFromHdfs.add(key(1));
    nameNodeDown = true;
    assertEquals(0, c.checkOnce());
    assertEquals(List.of("/a:1"), asked, "the pass stops asking at the first failure");
    assertEquals(Map.of(), dropped, "an unreachable NameNode never evicts");
    assertEquals(2, c.pending("s1"));
    assertEquals(0, c.checkOnce(), "not due before the retry interval");
    assertEquals(1, asked.size());

    nameNodeDown = false;
    clock.addAndGet(60_000);
    assertEquals(2, c.checkOnce());
    assertEquals(Map.of("s1", List.of(key(1))), dropped);
    assertEquals(0, c.pending());
  }

  @Test
  void checkOnce_datasetHdfsCannotParse_blocksKept() {
    AdoptionChecker c = new AdoptionChecker((datasetId, blocks) -> {
      throw new IllegalArgumentException("not a path: " + datasetId);
    }, (slave, stale) -> dropped.put(slave, stale), 10, 60_000, clock::get);
    c.enqueue("s1", List.of(held(1, "::")));
    assertEquals(1, c.checkOnce());
    assertEquals(Map.of(), dropped);
    assertEquals(0, c.pending());
  }

  @Test
  void enqueue_sameCopyTwice_checkedOnce() {
    AdoptionChecker c = checker(100);
    c.enqueue("s1", List.of(held(1, "/a")));
    c.enqueue("s1", List.of(held(1, "/a")));
    assertEquals(1, c.pending("s1"));
    assertEquals(1, c.checkOnce());
  }

  @Test
  void start_queuedBlocks_checkedByTheWorker() throws Exception {
    AdoptionChecker c = checker(100);
    c.init(new Configuration(false));
    c.start();
    try {
      goneFromHdfs.add(key(7));
      c.enqueue("s1", List.of(held(7, "/a")));
      // pending() is read under the checker's monitor, taken after the sink was called.
      Waits.waitFor(() -> c.pending() == 0, "the worker's pass");
      assertEquals(List.of(key(7)), dropped.get("s1"));
    } finally {
      c.stop();
    }
  }

  @Test
  void checkOnce_failureAfterAnAnsweredDataset_keepsTheAnswer() {
    GenerationStamps flaky = (datasetId, blocks) -> {
      if (datasetId.equals("/b")) {
        throw new IOException("timed out");
      }
      return Set.copyOf(blocks);
    };
    AdoptionChecker c = new AdoptionChecker(flaky,
        (slave, stale) -> dropped.put(slave, List.copyOf(stale)), 10, 60_000, clock::get);
    c.enqueue("s1", List.of(held(1, "/a"), held(2, "/b"), held(3, "/c")));
    assertEquals(1, c.checkOnce());
    assertEquals(Map.of("s1", List.of(key(1))), dropped);
    assertEquals(2, c.pending("s1"), "/b failed, /c was not asked: both wait");
  }
}
