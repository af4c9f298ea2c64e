package org.mpcache.slave.fill;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.cache.BlockFileCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's own clients of its cluster's HDFS ({@link FillSources}), one per file system, which
 * the fills read blocks with and every fill's admission checks the block's file with
 * ({@link #isBlockOf}). A path off the cluster's HDFS gets no client: this is the last stop
 * after the {@link FillSourceGate}.
 *
 * <p>Thread-safe.
 */
public final class FillFileSystems implements BlockFileCheck, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FillFileSystems.class);
  /**
   * The start of the name of the HDFS client context of a slave's fills when they read block files
   * by path; each slave started in the JVM adds a number of its own.
   */
  private static final String FILL_CLIENT_CONTEXT = "mpcache-slave-fill-";
  private static final AtomicInteger SLAVES = new AtomicInteger();

  private final Configuration conf;
  private final FillSourceGate sources;
  private final String clientContext = FILL_CLIENT_CONTEXT + SLAVES.incrementAndGet();
  /** One client per file system of the cluster's own: a bounded few. */
  @GuardedBy("this")
  private final Map<String, FileSystem> fileSystems = new HashMap<>();

  /** @param conf the configuration each client starts from */
  public FillFileSystems(Configuration conf, FillSourceGate sources) {
    this.conf = conf;
    this.sources = sources;
  }

  /**
   * Has a fill client configured by {@code conf} read the local DataNode's block files by path
   * ({@code mpcache.slave.fill.local-path-read}), unless the configuration turns HDFS's
   * short-circuit reads on itself: the DataNode then sends no byte of a fill, and where it
   * refuses the slave's user, HDFS's client says so once and reads through it. The fills get
   * client context {@code context} of their own, as HDFS shares one per name in a JVM and a
   * refusal turns path-based reads off for its whole context: a slave started again in the
   * same JVM asks again.
   */
  static void readLocalPaths(Configuration conf, String context) {
    if (!conf.getBoolean(SlaveConfigKeys.FILL_LOCAL_PATH_READ_KEY,
        SlaveConfigKeys.FILL_LOCAL_PATH_READ_DEFAULT)
        || conf.getBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY,
            HdfsClientConfigKeys.Read.ShortCircuit.DEFAULT)) {
      return;
    }
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY, true);
    conf.setBoolean(HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL, true);
    conf.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, context);
  }

  /**
   * Whether {@code key} is the block the file {@code path} of the cluster's own HDFS holds at
   * {@code offset}, {@code length} bytes long, asked of the NameNode as the slave's login user:
   * the check every fill's admission needs, so that neither a false file nor a false length
   * reaches the master, which would evict for it. False for a path off the cluster's HDFS (no
   * connection is made) and for a file that is gone or that the slave may not read.
   */
  @Override
  public boolean isBlockOf(BlockKey key, String path, long offset, long length)
      throws IOException {
    Path p;
    try {
      p = new Path(path);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (!sources.isOwn(p.toUri())) {
      return false;
    }
    try {
      return UserGroupInformation.getLoginUser().doAs((PrivilegedExceptionAction<Boolean>) () -> {
        for (LocatedBlock lb : get(p.toUri()).getClient()
            .getLocatedBlocks(p.toUri().getPath(), offset, 1).getLocatedBlocks()) {
          if (lb.getStartOffset() == offset) {
            return isKey(lb.getBlock(), key) && lb.getBlockSize() == length;
          }
        }
        return false;
      });
    } catch (FileNotFoundException | AccessControlException e) {
      LOG.debug("{} is not known to be the block of {} at {}: {}", key, path, offset,
          e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted checking the file of " + key);
    }
  }

  static boolean isKey(ExtendedBlock b, BlockKey key) {
    return b != null && b.getBlockPoolId().equals(key.getBlockPoolId())
        && b.getBlockId() == key.getBlockId() && b.getGenerationStamp() == key.getGenerationStamp();
  }

  /** The client of the file system {@code uri} lies on, which must be the cluster's own HDFS. */
  synchronized DistributedFileSystem get(URI uri) throws IOException {
    if (!sources.isOwn(uri)) {
      // Every path was qualified by the gate before it was queued: this is the last stop.
      throw new IOException("the slave fills only from its cluster's own HDFS "
          + sources.sources().authorities() + ", not from " + uri);
    }
    String authority = uri.getScheme() + "://" + uri.getAuthority();
    FileSystem fs = fileSystems.get(authority);
    if (fs == null) {
      Configuration c = new Configuration(conf);
      c.setClass("fs.hdfs.impl", DistributedFileSystem.class, FileSystem.class);
      readLocalPaths(c, clientContext);
      fs = FileSystem.newInstance(URI.create(authority), c);
      fileSystems.put(authority, fs);
    }
    if (!(fs instanceof DistributedFileSystem)) {
      throw new IOException("the slave fills blocks from HDFS only, not from " + uri);
    }
    return (DistributedFileSystem) fs;
  }

  @Override
  public synchronized void close() {
    for (FileSystem fs : fileSystems.values()) {
      IOUtils.closeStream(fs);
    }
    fileSystems.clear();
  }
}
