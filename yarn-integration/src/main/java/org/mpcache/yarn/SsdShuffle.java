package org.mpcache.yarn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * The reduce side's shuffle with its on-disk data on the SSD when the slave grants room: fetched map
 * outputs and in-memory merge outputs (through {@link SsdMapOutputFile}) and the on-disk merger's
 * {@code .merged} files (through {@link SsdLocalDirAllocator}), all written through a
 * {@link RelocatingLocalFileSystem}, so that a merge meeting a full SSD moves to an HDD dir instead
 * of failing the task. Fetched map outputs are written by Hadoop through the JVM's own local file
 * system and are not moved: a fetch that meets a full SSD fails the attempt, and the next attempt's
 * free-space check sends its files to the HDDs. Set with
 * {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}. ReduceTask builds the shuffle's
 * context before any plug-in code runs, so {@link #init} rebuilds it with these two placed
 * components. The merger's intermediate passes use a static allocator on
 * {@code mapreduce.cluster.local.dir}; that key is narrowed to the HDD dirs so that nothing reaches
 * the SSD without a grant. Thread-safety as {@link Shuffle}: one reduce task drives it.
 */
public class SsdShuffle<K, V> extends Shuffle<K, V> {

  @Override
  public void init(ShuffleConsumerPlugin.Context context) {
    SsdMapOutputFile outputFile = new SsdMapOutputFile();
    outputFile.setConf(context.getJobConf());
    context.getJobConf().setStrings(MRConfig.LOCAL_DIR,
        context.getJobConf().getTrimmedStrings(YarnIntegrationConfigKeys.HDD_LOCAL_DIRS_KEY));
    LocalFileSystem localFs;
    try {
      localFs = new LocalFileSystem(new RelocatingLocalFileSystem(outputFile.allocator(),
          context.getJobConf(), (from, to) -> { }));
      localFs.initialize(URI.create("file:///"), context.getJobConf());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set up the reduce's local file system", e);
    }
    super.init(withPlacement(context, localFs, outputFile, outputFile.allocator()));
  }

  /**
   * A copy of {@code c} that differs only in its local file system, map output file namer and local
   * dir allocator. The
   * 21-argument constructor is Hadoop's LimitedPrivate/Unstable API; a test pins it.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static ShuffleConsumerPlugin.Context withPlacement(ShuffleConsumerPlugin.Context c,
      FileSystem localFs, MapOutputFile outputFile, SsdLocalDirAllocator allocator) {
    return new ShuffleConsumerPlugin.Context(c.getReduceId(), c.getJobConf(), localFs,
        c.getUmbilical(), allocator, c.getReporter(), c.getCodec(), c.getCombinerClass(),
        c.getCombineCollector(), c.getSpilledRecordsCounter(), c.getReduceCombineInputCounter(),
        c.getShuffledMapsCounter(), c.getReduceShuffleBytes(), c.getFailedShuffleCounter(),
        c.getMergedMapOutputsCounter(), c.getStatus(), c.getCopyPhase(), c.getMergePhase(),
        c.getReduceTask(), outputFile, c.getLocalMapFiles());
  }
}
