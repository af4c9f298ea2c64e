package org.mpcache.yarn;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.YarnOutputFiles;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskID;

/**
 * Names the localized files of a task (map spills and outputs, the reduce's fetched map outputs) as
 * YARN does, but places each new file on the SSD when the slave grants room for it and on the HDD
 * local dirs otherwise. Reads are YARN's own: they search all of the task's local dirs, the SSD dir
 * among them. The final {@code file.out.index} goes beside {@code file.out} (the ShuffleHandler reads
 * both from one directory); its room is asked for together with {@code file.out}'s.
 *
 * <p>Instantiated by MapTask through {@code mapreduce.task.local.output.class} (which
 * {@link SsdMapOutputCollector} sets) and by {@link SsdShuffle}. Thread-safe after {@link #setConf}.
 */
public class SsdMapOutputFile extends YarnOutputFiles {
  private static final String OUTPUT_DIR = "output";
  private static final String OUTPUT_FILE = "file.out";
  private static final String INDEX_SUFFIX = ".index";
  /** Bytes per partition in a spill index (offset, raw and compressed length), plus a checksum. */
  private static final long INDEX_RECORD_BYTES = 24;
  private static final long INDEX_CHECKSUM_BYTES = 8;

  private volatile SsdLocalDirAllocator allocator;
  private volatile Path outputFile;

  public SsdMapOutputFile() {
  }

  SsdMapOutputFile(SsdLocalDirAllocator allocator) {
    this.allocator = allocator;
  }

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    if (allocator == null) {
      allocator = new SsdLocalDirAllocator(LocalizedSpaceClient.forTask(getConf(), System.getenv()));
    }
  }

  private JobConf conf() {
    return (JobConf) getConf();
  }

  private String attemptOutputDir() {
    return OUTPUT_DIR + Path.SEPARATOR + conf().get(MRJobConfig.TASK_ATTEMPT_ID);
  }

  private String spillName(int spillNumber) {
    return String.format("%s_spill_%d.out", conf().get(MRJobConfig.TASK_ATTEMPT_ID), spillNumber);
  }

  @Override
  public Path getOutputFileForWrite(long size) throws IOException {
    long indexBytes = conf().getNumReduceTasks() * INDEX_RECORD_BYTES + INDEX_CHECKSUM_BYTES;
    Path p = allocator.getLocalPathForWrite(attemptOutputDir() + Path.SEPARATOR + OUTPUT_FILE,
        size < 0 ? size : size + indexBytes, conf());
    outputFile = p;
    return p;
  }

  @Override
  public Path getOutputIndexFileForWrite(long size) throws IOException {
    Path out = outputFile;
    if (out != null) {
      return out.suffix(INDEX_SUFFIX);
    }
    return allocator.getLocalPathForWrite(
        attemptOutputDir() + Path.SEPARATOR + OUTPUT_FILE + INDEX_SUFFIX, size, conf());
  }

  @Override
  public Path getSpillFileForWrite(int spillNumber, long size) throws IOException {
    return allocator.getLocalPathForWrite(spillName(spillNumber), size, conf());
  }

  @Override
  public Path getSpillIndexFileForWrite(int spillNumber, long size) throws IOException {
    return allocator.getLocalPathForWrite(spillName(spillNumber) + INDEX_SUFFIX, size, conf());
  }

  @Override
  public Path getInputFileForWrite(TaskID mapId, long size) throws IOException {
    return allocator.getLocalPathForWrite(String.format("%s/map_%d.out", attemptOutputDir(),
        mapId.getId()), size, conf());
  }

  /** The allocator this file namer places with, for the reduce's merger. */
  SsdLocalDirAllocator allocator() {
    return allocator;
  }

  /**
   * Tells the slave how many bytes of this map's final output stay on the SSD until the application
   * ends ({@code file.out} and its index); the rest of the attempt's grants end with its container.
   */
  void reportRetainedOutput() throws IOException {
    Path out = getOutputFile();
    Path index = getOutputIndexFile();
    FileSystem local = FileSystem.getLocal(conf()).getRaw();
    long bytes = local.getFileStatus(out).getLen();
    if (index.getParent().equals(out.getParent())) {
      bytes += local.getFileStatus(index).getLen();
    }
    allocator.client().reportRetained(out, bytes);
  }
}
