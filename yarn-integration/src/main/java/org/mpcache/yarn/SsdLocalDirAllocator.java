package org.mpcache.yarn;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;

/**
 * A {@link LocalDirAllocator} that puts each file on the SSD when the slave grants room for it and
 * the SSD's filesystem really has that room plus a margin (see {@link LocalizedSpaceClient#place}),
 * and otherwise on the task's HDD local dirs ({@link YarnIntegrationConfigKeys#HDD_LOCAL_DIRS_KEY}, which
 * {@link LocalizedSpaceClient#forTask} sets). Used for map spills and outputs through
 * {@link SsdMapOutputFile} and for the reduce's on-disk merges through {@link SsdShuffle}. Thread-safe,
 * as the client and Hadoop's allocator are.
 */
public class SsdLocalDirAllocator extends LocalDirAllocator {
  private final LocalizedSpaceClient ssd;

  SsdLocalDirAllocator(LocalizedSpaceClient ssd) {
    super(YarnIntegrationConfigKeys.HDD_LOCAL_DIRS_KEY);
    this.ssd = Objects.requireNonNull(ssd, "ssd");
  }

  @Override
  public Path getLocalPathForWrite(String pathStr, long size, Configuration conf,
      boolean checkWrite) throws IOException {
    return placed(pathStr, size, 0, false, conf, checkWrite);
  }

  /**
   * Where a file of about {@code size} bytes goes, its SSD grant also holding {@code besideBytes}
   * for a file written next to it without a grant of its own, and asked for in steps as it is
   * written when it {@code grows} (see {@link LocalizedSpaceClient#place}).
   */
  Path getLocalPathForWrite(String pathStr, long size, long besideBytes, boolean grows,
      Configuration conf) throws IOException {
    return placed(pathStr, size, besideBytes, grows, conf, true);
  }

  private Path placed(String pathStr, long size, long besideBytes, boolean grows,
      Configuration conf, boolean checkWrite) throws IOException {
    Path onSsd = ssd.place(pathStr, size, besideBytes, grows);
    return onSsd != null ? onSsd : super.getLocalPathForWrite(pathStr, size, conf, checkWrite);
  }

  /** Where a file of about {@code size} bytes goes on the HDD dirs, never the SSD. */
  Path hddPathForWrite(String pathStr, long size, Configuration conf) throws IOException {
    return super.getLocalPathForWrite(pathStr, size, conf, true);
  }

  LocalizedSpaceClient client() {
    return ssd;
  }
}
