package org.mpcache.master.control;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.AccessControlException;
import org.mpcache.common.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link BlockFiles} from the cluster's own NameNode ({@code fs.defaultFS}): one
 * {@code getBlockLocations} call for the block's offset, as the master's login user. A path on
 * another file system is never looked up (no connection is made), and a file the master may not
 * read cannot be told, so its blocks are not admitted.
 *
 * <p>Thread-safe: one HDFS client, opened on first use and closed by {@link #close}.
 */
public final class NameNodeBlockFiles implements BlockFiles, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeBlockFiles.class);

  private final Configuration conf;
  @GuardedBy("this")
  private DistributedFileSystem fs;

  /** @param conf the master's configuration (its {@code fs.defaultFS} names the cluster) */
  public NameNodeBlockFiles(Configuration conf) {
    this.conf = new Configuration(conf);
    // The master's own client reads HDFS directly, never through the caching FileSystem.
    this.conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
  }

  @Override
  public String fileOf(BlockKey block, String path, long offset) throws IOException {
    DistributedFileSystem dfs = client();
    if (dfs == null) {
      return null;
    }
    Path qualified;
    try {
      qualified = dfs.makeQualified(new Path(path));
    } catch (IllegalArgumentException e) {
      return null; // another file system's path
    }
    try {
      for (LocatedBlock lb : dfs.getClient()
          .getLocatedBlocks(qualified.toUri().getPath(), offset, 1).getLocatedBlocks()) {
        ExtendedBlock b = lb.getBlock();
        if (lb.getStartOffset() == offset) {
          return b.getBlockPoolId().equals(block.getBlockPoolId())
              && b.getBlockId() == block.getBlockId()
              && b.getGenerationStamp() == block.getGenerationStamp()
              ? qualified.toString() : null;
        }
      }
      return null;
    } catch (FileNotFoundException | AccessControlException e) {
      LOG.debug("Cannot tell whether {} is the block of {} at {}: {}", block, path, offset,
          e.getMessage());
      return null;
    }
  }

  private synchronized DistributedFileSystem client() throws IOException {
    if (fs == null) {
      FileSystem f = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
      if (!(f instanceof DistributedFileSystem)) {
        f.close();
        return null;
      }
      fs = (DistributedFileSystem) f;
    }
    return fs;
  }

  @Override
  public synchronized void close() {
    IOUtils.cleanupWithLogger(LOG, fs);
    fs = null;
  }
}
