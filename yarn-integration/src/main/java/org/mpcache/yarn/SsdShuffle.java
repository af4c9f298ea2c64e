package org.mpcache.yarn;

import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * The reduce side's shuffle with its on-disk data on the SSD when the slave grants room: fetched map
 * outputs and in-memory merge outputs (through {@link SsdMapOutputFile}) and the on-disk merger's
 * {@code .merged} files (through {@link SsdLocalDirAllocator}). Set with
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
    super.init(withPlacement(context, outputFile, outputFile.allocator()));
  }

  /**
   * A copy of {@code c} that differs only in its map output file namer and local dir allocator. The
   * 21-argument constructor is Hadoop's LimitedPrivate/Unstable API; a test pins it.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static ShuffleConsumerPlugin.Context withPlacement(ShuffleConsumerPlugin.Context c,
      MapOutputFile outputFile, SsdLocalDirAllocator allocator) {
    return new ShuffleConsumerPlugin.Context(c.getReduceId(), c.getJobConf(), c.getLocalFS(),
        c.getUmbilical(), allocator, c.getReporter(), c.getCodec(), c.getCombinerClass(),
        c.getCombineCollector(), c.getSpilledRecordsCounter(), c.getReduceCombineInputCounter(),
        c.getShuffledMapsCounter(), c.getReduceShuffleBytes(), c.getFailedShuffleCounter(),
        c.getMergedMapOutputsCounter(), c.getStatus(), c.getCopyPhase(), c.getMergePhase(),
        c.getReduceTask(), outputFile, c.getLocalMapFiles());
  }
}
