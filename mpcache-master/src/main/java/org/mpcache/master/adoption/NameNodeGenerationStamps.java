package org.mpcache.master.adoption;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.AccessControlException;
import org.mpcache.common.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GenerationStamps} from the NameNode: lists each of a dataset's input paths (recursively,
 * globs expanded) with block locations, so one listing call returns the blocks of many files (up
 * to the NameNode's {@code dfs.ls.limit}), and stops as soon as every block asked about was seen.
 * The client runs as the master's login user (under Kerberos, the master's principal); a path it
 * may not read, or one not on HDFS, cannot be checked and its blocks count as current.
 *
 * <p>Thread-safe: one HDFS client per file system URI, opened on first use and closed by
 * {@link #close}.
 */
public final class NameNodeGenerationStamps implements GenerationStamps, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeGenerationStamps.class);

  private final Configuration conf;
  @GuardedBy("this")
  private final Map<URI, FileSystem> clients = new HashMap<>();

  /** @param conf the master's configuration (its {@code fs.defaultFS} qualifies bare paths) */
  public NameNodeGenerationStamps(Configuration conf) {
    this.conf = new Configuration(conf);
    // The master's own client reads HDFS directly, never through the caching FileSystem.
    this.conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
  }

  @Override
  public Set<BlockKey> stale(String datasetId, Collection<BlockKey> blocks) throws IOException {
    Set<BlockKey> unseen = new HashSet<>(blocks);
    for (String root : datasetId.split(",")) {
      if (unseen.isEmpty()) {
        break;
      }
      Path path = new Path(root);
      DistributedFileSystem dfs = client(path);
      if (dfs == null) {
        return Set.of();
      }
      try {
        FileStatus[] matches = dfs.globStatus(path);
        if (matches == null) {
          continue; // the path is gone: its blocks too
        }
        for (FileStatus m : matches) {
          see(dfs.listFiles(m.getPath(), true), unseen);
        }
      } catch (AccessControlException e) {
        LOG.warn("Cannot check the cached blocks of dataset {} against HDFS; they are kept: {}",
            datasetId, e.getMessage());
        return Set.of();
      } catch (FileNotFoundException e) {
        // Deleted while listed: what was not seen is gone.
      }
    }
    return unseen;
  }

  /** Removes from {@code unseen} every block the listed files have, until none is left. */
  private static void see(RemoteIterator<LocatedFileStatus> files, Set<BlockKey> unseen)
      throws IOException {
    while (!unseen.isEmpty() && files.hasNext()) {
      LocatedFileStatus f = files.next();
      LocatedBlocks blocks = f instanceof HdfsLocatedFileStatus
          ? ((HdfsLocatedFileStatus) f).getLocatedBlocks() : null;
      if (blocks == null) {
        continue;
      }
      for (LocatedBlock lb : blocks.getLocatedBlocks()) {
        ExtendedBlock b = lb.getBlock();
        unseen.remove(new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp()));
      }
    }
  }

  /** The HDFS client for the path's file system; null when it is not HDFS. */
  private DistributedFileSystem client(Path path) throws IOException {
    URI uri = path.toUri().getScheme() == null ? FileSystem.getDefaultUri(conf)
        : URI.create(path.toUri().getScheme() + "://"
            + (path.toUri().getAuthority() == null ? "" : path.toUri().getAuthority()));
    FileSystem fs;
    synchronized (this) {
      fs = clients.get(uri);
      if (fs == null) {
        try {
          fs = FileSystem.newInstance(uri, conf);
        } catch (UnsupportedFileSystemException e) {
          return null;
        }
        clients.put(uri, fs);
      }
    }
    return fs instanceof DistributedFileSystem ? (DistributedFileSystem) fs : null;
  }

  @Override
  public synchronized void close() {
    IOUtils.cleanupWithLogger(LOG, clients.values().toArray(new Closeable[0]));
    clients.clear();
  }
}
