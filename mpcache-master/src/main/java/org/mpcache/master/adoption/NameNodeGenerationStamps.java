package org.mpcache.master.adoption;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.AccessControlException;
import org.mpcache.common.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GenerationStamps} from the NameNode: asks for the block list of the one file a block was
 * cached from ({@code getBlockLocations} over the whole file), as the master's login user (under
 * Kerberos, the master's principal). Only the cluster's own HDFS is asked: the file system of
 * {@code fs.defaultFS} and the nameservices of {@code dfs.nameservices}, as the slaves fill only
 * from those. A file elsewhere, or one the master may not read, cannot be checked and its blocks
 * count as current; no connection is made for it.
 *
 * <p>Thread-safe: one HDFS client per file system of the cluster, opened on first use and closed
 * by {@link #close}.
 */
public final class NameNodeGenerationStamps implements GenerationStamps, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeGenerationStamps.class);

  private final Configuration conf;
  /** The file systems of the cluster's own HDFS, as {@code hdfs://authority}. */
  private final Set<URI> own = new HashSet<>();
  /** The file system a path without scheme and authority is on; null when not HDFS. */
  private final URI defaultFs;
  @GuardedBy("this")
  private final Map<URI, DistributedFileSystem> clients = new HashMap<>();

  /** @param conf the master's configuration (its {@code fs.defaultFS} qualifies bare paths) */
  public NameNodeGenerationStamps(Configuration conf) {
    this.conf = new Configuration(conf);
    // The master's own client reads HDFS directly, never through the caching FileSystem.
    this.conf.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
    URI def = FileSystem.getDefaultUri(conf);
    defaultFs = "hdfs".equalsIgnoreCase(def.getScheme()) && def.getAuthority() != null
        ? URI.create("hdfs://" + def.getAuthority()) : null;
    if (defaultFs != null) {
      own.add(defaultFs);
    }
    for (String ns : conf.getTrimmedStringCollection(HdfsClientConfigKeys.DFS_NAMESERVICES)) {
      own.add(URI.create("hdfs://" + ns));
    }
  }

  @Override
  public Set<BlockKey> stale(String file, Collection<BlockKey> blocks) throws IOException {
    Path path = new Path(file);
    URI uri = path.toUri();
    URI fs = uri.getScheme() == null ? defaultFs
        : URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://"
            + (uri.getAuthority() == null ? "" : uri.getAuthority()));
    if (fs == null || !own.contains(fs)
        || !Path.getPathWithoutSchemeAndAuthority(path).isAbsolute()) {
      LOG.debug("Not checking blocks of {}: not a file of the cluster's HDFS {}", file, own);
      return Set.of();
    }
    LocatedBlocks located;
    try {
      located = client(fs).getClient().getLocatedBlocks(
          Path.getPathWithoutSchemeAndAuthority(path).toString(), 0, Long.MAX_VALUE);
    } catch (FileNotFoundException e) {
      return new HashSet<>(blocks); // the file is gone: its blocks too
    } catch (AccessControlException e) {
      LOG.warn("Cannot check the cached blocks of {} against HDFS; they are kept: {}", file,
          e.getMessage());
      return Set.of();
    }
    Set<BlockKey> unseen = new HashSet<>(blocks);
    if (located == null) {
      return unseen;
    }
    for (LocatedBlock lb : located.getLocatedBlocks()) {
      ExtendedBlock b = lb.getBlock();
      unseen.remove(new BlockKey(b.getBlockPoolId(), b.getBlockId(), b.getGenerationStamp()));
    }
    return unseen;
  }

  /** The HDFS client for one of the cluster's file systems. */
  private synchronized DistributedFileSystem client(URI fs) throws IOException {
    DistributedFileSystem dfs = clients.get(fs);
    if (dfs == null) {
      FileSystem opened = FileSystem.newInstance(fs, conf);
      if (!(opened instanceof DistributedFileSystem)) {
        opened.close();
        throw new IOException(fs + " is not HDFS");
      }
      dfs = (DistributedFileSystem) opened;
      clients.put(fs, dfs);
    }
    return dfs;
  }

  @Override
  public synchronized void close() {
    IOUtils.cleanupWithLogger(LOG, clients.values().toArray(new Closeable[0]));
    clients.clear();
  }
}
