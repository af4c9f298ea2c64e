package org.mpcache.yarn;

import java.io.IOException;
import java.lang.reflect.Field;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MapTask's sort-and-spill buffer with its spills and final output placed by
 * {@link SsdMapOutputFile}: on the SSD when the slave grants room, on the HDDs otherwise. Set with
 * {@code mapreduce.job.map.output.collector.class}. Under YARN, {@code YarnChild} forces the task's
 * {@code mapreduce.task.local.output.class} to {@code YarnOutputFiles}; {@link #init} sets it back and
 * re-configures the map task before the buffer asks for its output file. The buffer writes its
 * spills and output through a {@link RelocatingLocalFileSystem}, so that a write meeting a full SSD
 * moves to an HDD dir instead of failing the task. After the final merge the map reports the size
 * of its output to the slave, which keeps that much granted until the application ends.
 * Thread-safety as {@link MapTask.MapOutputBuffer}: one map task drives it.
 */
public class SsdMapOutputCollector<K, V> extends MapTask.MapOutputBuffer<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SsdMapOutputCollector.class);
  /**
   * The buffer's private local file system, set once in its {@code init}; Hadoop offers no other
   * way to choose it. {@code SsdMapOutputCollectorTest} pins the field.
   */
  static final String FILE_SYSTEM_FIELD = "rfs";

  private MapOutputFile outputFile;

  @Override
  public void init(Context context) throws IOException, ClassNotFoundException {
    JobConf job = context.getJobConf();
    job.setClass(MRConfig.TASK_LOCAL_OUTPUT_CLASS, SsdMapOutputFile.class, MapOutputFile.class);
    context.getMapTask().setConf(job);
    outputFile = context.getMapTask().getMapOutputFile();
    super.init(context);
    if (outputFile instanceof SsdMapOutputFile ssd) {
      // Set before the first spill: the spill thread reads the field after taking the spill lock,
      // which this thread takes after returning from init.
      if (writeThrough(new RelocatingLocalFileSystem(ssd.allocator(), job, ssd::followMoved))) {
        ssd.spillsWrittenThroughRelocating();
      }
    }
  }

  /**
   * Makes the buffer write its spills and output through {@code fs}; whether it could, or logs why
   * it cannot.
   */
  boolean writeThrough(FileSystem fs) {
    try {
      Field f = MapTask.MapOutputBuffer.class.getDeclaredField(FILE_SYSTEM_FIELD);
      f.setAccessible(true);
      f.set(this, fs);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Map outputs that meet a full SSD will fail the attempt: cannot set the map output"
          + " buffer's file system: {}", e.toString());
      return false;
    }
  }

  @Override
  public void flush() throws IOException, ClassNotFoundException, InterruptedException {
    super.flush();
    if (outputFile instanceof SsdMapOutputFile ssd) {
      ssd.settleMovedIndex();
      ssd.reportRetainedOutput();
    }
  }
}
