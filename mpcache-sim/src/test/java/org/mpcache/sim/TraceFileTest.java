package org.mpcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;

/** The generic trace format: parsing, its errors, and replaying the example trace. */
class TraceFileTest {
  private static final long BLOCK = 128L << 20;
  private static final long GB = 1L << 30;

  private static Path example() throws URISyntaxException {
    return Paths.get(TraceFileTest.class.getResource("/traces/example-trace.csv").toURI());
  }

  @Test
  void read_exampleTrace() throws Exception {
    List<SimJob> jobs = TraceFile.read(example(), BLOCK);
    assertEquals(10, jobs.size());
    SimJob first = jobs.get(0);
    assertEquals("job_0001", first.id);
    assertEquals("/data/logs/day1", first.dataset);
    assertEquals(8, first.blocks, "1 GiB in 128 MiB blocks");
    assertEquals(104857600L, first.shuffleBytes);
    assertEquals(10485760L, first.outputBytes);
    assertEquals(80, jobs.get(3).blocks, "10 GiB");
  }

  @Test
  void read_tabSeparatedSortedBySubmitTimeAndAPartialReadStaysPartial(@TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("t.tsv");
    Files.writeString(f, String.join("\t", TraceFile.COLUMNS) + "\n"
        + "500\tlate\t/d\t100\t0\t0\n"
        + "\n# a comment\n"
        + "100\tearly\t/d\t300000000\t5\t6\n");
    List<SimJob> jobs = TraceFile.read(f, BLOCK);
    assertEquals("early", jobs.get(0).id);
    assertEquals("late", jobs.get(1).id);
    assertEquals(3, jobs.get(1).datasetBlocks, "the dataset has its largest size: 300 MB");
    assertEquals(1, jobs.get(1).blocks, "the late job reads 100 bytes: the first block");
    assertEquals(100, jobs.get(1).inputBytes);
    assertEquals(3, jobs.get(0).blocks);
  }

  @Test
  void replay_aPartialReadReadsAPrefixOfItsDataset(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, String.join(",", TraceFile.COLUMNS) + "\n"
        + "0,full,/d," + 3 * BLOCK + ",0,0\n"
        + "1,part,/d," + BLOCK + ",0,0\n"
        + "2,other,/e," + 2 * BLOCK + ",0,0\n");
    List<SimJob> jobs = TraceFile.read(f, BLOCK);
    SimResult r = new ClusterSimulator(ClusterSimulator.Config.paper(100 * GB))
        .run(CachePolicies.create(CachePolicies.LRU, PolicyParameters.defaults()), jobs);
    assertEquals(3 + 1 + 2, r.blockAccesses, "the partial read reads one block, not three");
    assertEquals(1, r.blockHits, "its block is the first block the full read cached");
    assertEquals(1, r.wholeInputCachedJobs);
    assertEquals(BLOCK, r.ssdBytes);
  }

  @Test
  void read_malformedLinesNameFileLineAndField(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "submit_ms,job_id,input_path,input_bytes,shuffle_bytes,output_bytes\n"
        + "0,j1,/d,12x,0,0\n");
    IOException e = assertThrows(IOException.class, () -> TraceFile.read(f, BLOCK));
    assertTrue(e.getMessage().contains("bad.csv:2") && e.getMessage().contains("input_bytes")
        && e.getMessage().contains("12x"), e.getMessage());

    Files.writeString(f, "submit_ms,job_id,input_path,input_bytes,shuffle_bytes,output_bytes\n"
        + "0,j1,/d,1,0\n");
    e = assertThrows(IOException.class, () -> TraceFile.read(f, BLOCK));
    assertTrue(e.getMessage().contains(":2: expected 6 fields, found 5"), e.getMessage());

    Files.writeString(f, "time,job,path\n");
    e = assertThrows(IOException.class, () -> TraceFile.read(f, BLOCK));
    assertTrue(e.getMessage().contains(":1: expected the header"), e.getMessage());

    Files.writeString(f, "# nothing\n");
    e = assertThrows(IOException.class, () -> TraceFile.read(f, BLOCK));
    assertTrue(e.getMessage().contains("empty trace"), e.getMessage());
  }

  @Test
  void replay_exampleTraceHitsOnlyWhatFits() throws Exception {
    List<SimJob> jobs = TraceFile.read(example(), BLOCK);
    // 100 GB per node holds everything: 8 + 32 + 80 blocks missed once each, the rest hit.
    SimResult big = new ClusterSimulator(ClusterSimulator.Config.paper(100 * GB))
        .run(CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults()), jobs);
    long accesses = 5 * 8 + 3 * 32 + 2 * 80;
    assertEquals(accesses, big.blockAccesses);
    assertEquals(accesses - (8 + 32 + 80), big.blockHits);
    assertEquals(7, big.wholeInputCachedJobs, "every job after its dataset's first");
    assertTrue(big.speedup() > 1);
    SimResult none = new ClusterSimulator(ClusterSimulator.Config.paper(100 * GB))
        .run(CachePolicies.create(CachePolicies.NONE, PolicyParameters.defaults()), jobs);
    assertEquals(0, none.blockHits);
    assertEquals(accesses * BLOCK, none.hddBytes);
  }

  @Test
  void main_replaysATraceFile(@TempDir Path dir) throws Exception {
    SimulatorMain m = new SimulatorMain();
    m.parse(new String[] {"--trace", example().toString(), "--sizes-gb", "1,100",
        "--policies", "mpcache,lru", "--out", dir.toString()});
    List<SimResult> results = m.run(new PrintStream(OutputStream.nullOutputStream()));
    assertEquals(4, results.size());
    assertTrue(results.get(3).blockHits > results.get(1).blockHits,
        "more cache, more hits for LRU");
  }
}
