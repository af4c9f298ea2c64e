package org.mpcache.yarn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mockito.Mockito.mock;

import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.util.Progress;
import org.junit.jupiter.api.Test;

class SsdShuffleTest {

  /** Pins Hadoop's 21-argument Context constructor and checks every other field is carried over. */
  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void withPlacement_contextConstructor_copiesAllButPlacementAndFileSystem() throws Exception {
    Class<?>[] types = {org.apache.hadoop.mapreduce.TaskAttemptID.class, JobConf.class,
        FileSystem.class, TaskUmbilicalProtocol.class, LocalDirAllocator.class, Reporter.class,
        CompressionCodec.class, Class.class, Task.CombineOutputCollector.class,
        Counters.Counter.class, Counters.Counter.class, Counters.Counter.class,
        Counters.Counter.class, Counters.Counter.class, Counters.Counter.class,
        TaskStatus.class, Progress.class, Progress.class, Task.class, MapOutputFile.class,
        Map.class};
    assertNotNull(ShuffleConsumerPlugin.Context.class.getConstructor(types));

    TaskAttemptID reduceId = TaskAttemptID.forName("attempt_1_0001_r_000000_0");
    JobConf conf = new JobConf(false);
    Counters.Counter[] counters = new Counters.Counter[6];
    for (int i = 0; i < counters.length; i++) {
      counters[i] = mock(Counters.Counter.class);
    }
    Map<TaskAttemptID, MapOutputFile> localMaps = Map.of();
    ShuffleConsumerPlugin.Context original = new ShuffleConsumerPlugin.Context(reduceId, conf,
        mock(FileSystem.class), mock(TaskUmbilicalProtocol.class), new LocalDirAllocator("x"),
        mock(Reporter.class), mock(CompressionCodec.class), Reducer.class,
        mock(Task.CombineOutputCollector.class), counters[0], counters[1], counters[2],
        counters[3], counters[4], counters[5], mock(TaskStatus.class), new Progress(),
        new Progress(), mock(Task.class), mock(MapOutputFile.class), localMaps);
    SsdLocalDirAllocator allocator = new SsdLocalDirAllocator(
        new LocalizedSpaceClient(null, null, null, null, 1.0, java.util.List.of(),
            java.util.List.of(), new org.apache.hadoop.conf.Configuration(false)));
    SsdMapOutputFile outputFile = new SsdMapOutputFile(allocator);

    FileSystem localFs = mock(FileSystem.class);
    ShuffleConsumerPlugin.Context copy =
        SsdShuffle.withPlacement(original, localFs, outputFile, allocator);

    assertSame(allocator, copy.getLocalDirAllocator());
    assertSame(outputFile, copy.getMapOutputFile());
    assertSame(original.getReduceId(), copy.getReduceId());
    assertSame(original.getJobConf(), copy.getJobConf());
    assertSame(localFs, copy.getLocalFS());
    assertSame(original.getUmbilical(), copy.getUmbilical());
    assertSame(original.getReporter(), copy.getReporter());
    assertSame(original.getCodec(), copy.getCodec());
    assertSame(original.getCombinerClass(), copy.getCombinerClass());
    assertSame(original.getCombineCollector(), copy.getCombineCollector());
    assertSame(original.getSpilledRecordsCounter(), copy.getSpilledRecordsCounter());
    assertSame(original.getReduceCombineInputCounter(), copy.getReduceCombineInputCounter());
    assertSame(original.getShuffledMapsCounter(), copy.getShuffledMapsCounter());
    assertSame(original.getReduceShuffleBytes(), copy.getReduceShuffleBytes());
    assertSame(original.getFailedShuffleCounter(), copy.getFailedShuffleCounter());
    assertSame(original.getMergedMapOutputsCounter(), copy.getMergedMapOutputsCounter());
    assertSame(original.getStatus(), copy.getStatus());
    assertSame(original.getCopyPhase(), copy.getCopyPhase());
    assertSame(original.getMergePhase(), copy.getMergePhase());
    assertSame(original.getReduceTask(), copy.getReduceTask());
    assertSame(original.getLocalMapFiles(), copy.getLocalMapFiles());
  }
}
