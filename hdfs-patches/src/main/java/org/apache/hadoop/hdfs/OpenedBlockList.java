package org.apache.hadoop.hdfs;

import java.util.ArrayList;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The block list a {@link DFSInputStream} fetched from the NameNode when it opened, for mpCache's
 * reader, which keys the cache by exactly those blocks. HDFS keeps the list protected; this class
 * sits in HDFS's package for that one call. A copy taken right after the open names the blocks of
 * the file the stream reads, with no second NameNode call and no window in which the path could
 * be renamed over between the two. Stateless; thread-safe.
 */
public final class OpenedBlockList {
  private OpenedBlockList() {
  }

  /**
   * A copy of the located blocks {@code in} holds (those its open fetched, as long as it has not
   * read yet), or null if it holds none.
   */
  public static LocatedBlocks of(DFSInputStream in) {
    synchronized (in.infoLock) {
      LocatedBlocks b = in.getLocatedBlocks();
      if (b == null) {
        return null;
      }
      return new LocatedBlocks(b.getFileLength(), b.isUnderConstruction(),
          new ArrayList<>(b.getLocatedBlocks()), b.getLastLocatedBlock(), b.isLastBlockComplete(),
          b.getFileEncryptionInfo(), b.getErasureCodingPolicy());
    }
  }
}
