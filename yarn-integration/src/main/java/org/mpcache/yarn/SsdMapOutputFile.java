package org.mpcache.yarn;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.YarnOutputFiles;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(SsdMapOutputFile.class);
  private static final String OUTPUT_DIR = "output";
  private static final String OUTPUT_FILE = "file.out";
  private static final String INDEX_SUFFIX = ".index";
  /** Bytes per partition in a spill index (offset, raw and compressed length), plus a checksum. */
  private static final long INDEX_RECORD_BYTES = 24;
  private static final long INDEX_CHECKSUM_BYTES = 8;

  private volatile SsdLocalDirAllocator allocator;
  private volatile Path outputFile;
  /** Whether spills are written through a {@link RelocatingLocalFileSystem}, which grows them. */
  private volatile boolean spillsGrow;

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

  /** The bytes of a spill index or of the final {@code file.out.index}. */
  private long indexBytes() {
    return conf().getNumReduceTasks() * INDEX_RECORD_BYTES + INDEX_CHECKSUM_BYTES;
  }

  @Override
  public Path getOutputFileForWrite(long size) throws IOException {
    Path p = allocator.getLocalPathForWrite(attemptOutputDir() + Path.SEPARATOR + OUTPUT_FILE,
        size, indexBytes(), false, conf());
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
    // A map's only spill becomes its file.out by a rename, and its index is then written beside
    // it: the spill's grant holds the index's bytes, as file.out's does.
    return allocator.getLocalPathForWrite(spillName(spillNumber), size, indexBytes(),
        spillsGrow, conf());
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

  /**
   * Says that the map's spills are written through a {@link RelocatingLocalFileSystem}, which asks
   * for their room in steps as they grow: from now on a spill's room is asked for so.
   */
  void spillsWrittenThroughRelocating() {
    spillsGrow = true;
  }

  /** The allocator this file namer places with, for the reduce's merger. */
  SsdLocalDirAllocator allocator() {
    return allocator;
  }

  /**
   * Called when a file moved from the SSD to an HDD dir because the SSD was full
   * ({@link RelocatingLocalFileSystem}). When it is the final {@code file.out}, its index must land
   * beside it, but Hadoop writes the index later, through the JVM's own local file system, to the
   * SSD path this namer handed out before the move; a symbolic link at that path sends it to the
   * HDD, and {@link #settleMovedIndex} removes the link once the index is written.
   */
  void followMoved(Path from, Path to) {
    if (from.equals(outputFile)) {
      File link = new File(from.suffix(INDEX_SUFFIX).toUri().getPath());
      try {
        Files.deleteIfExists(link.toPath());
        Files.createSymbolicLink(link.toPath(), new File(to.suffix(INDEX_SUFFIX).toUri().getPath())
            .toPath());
      } catch (IOException e) {
        // The index is then written on the SSD if it fits, which may leave the ShuffleHandler
        // unable to find it beside file.out; MapReduce then re-runs the map.
        LOG.warn("Cannot point {} at the HDD beside the moved map output: {}", link, e.toString());
      }
    }
  }

  /** Removes the link {@link #followMoved} left at the final index's SSD path, if any. */
  void settleMovedIndex() throws IOException {
    Path out = outputFile;
    if (out != null) {
      java.nio.file.Path link = new File(out.suffix(INDEX_SUFFIX).toUri().getPath()).toPath();
      if (Files.isSymbolicLink(link)) {
        Files.delete(link);
      }
    }
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
