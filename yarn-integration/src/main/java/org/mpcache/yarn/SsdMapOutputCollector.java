package org.mpcache.yarn;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * MapTask's sort-and-spill buffer with its spills and final output placed by
 * {@link SsdMapOutputFile}: on the SSD when the slave grants room, on the HDDs otherwise. Set with
 * {@code mapreduce.job.map.output.collector.class}. Under YARN, {@code YarnChild} forces the task's
 * {@code mapreduce.task.local.output.class} to {@code YarnOutputFiles}; {@link #init} sets it back and
 * re-configures the map task before the buffer asks for its output file. After the final merge the
 * map reports the size of its output to the slave, which keeps that much granted until the
 * application ends. Thread-safety as {@link MapTask.MapOutputBuffer}: one map task drives it.
 */
public class SsdMapOutputCollector<K, V> extends MapTask.MapOutputBuffer<K, V> {
  private MapOutputFile outputFile;

  @Override
  public void init(Context context) throws IOException, ClassNotFoundException {
    JobConf job = context.getJobConf();
    job.setClass(MRConfig.TASK_LOCAL_OUTPUT_CLASS, SsdMapOutputFile.class, MapOutputFile.class);
    context.getMapTask().setConf(job);
    outputFile = context.getMapTask().getMapOutputFile();
    super.init(context);
  }

  @Override
  public void flush() throws IOException, ClassNotFoundException, InterruptedException {
    super.flush();
    if (outputFile instanceof SsdMapOutputFile ssd) {
      ssd.reportRetainedOutput();
    }
  }
}
