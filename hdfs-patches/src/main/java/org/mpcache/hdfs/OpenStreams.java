package org.mpcache.hdfs;

import java.io.Closeable;
import java.lang.ref.Cleaner;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;

/**
 * The cache readers the open streams of one {@link MpCacheFileSystem} hold (block files'
 * descriptors, with the slave's connection and space for each; block streams), let go however a
 * stream ends: when it closes, when it is dropped unclosed (a cleaner runs once it is
 * unreachable), or when its FileSystem closes, which frees what a stream nobody closes holds
 * without waiting for the garbage collector.
 *
 * <p>Thread-safe.
 */
final class OpenStreams implements Closeable {
  /** Lets go of what streams dropped unclosed held. */
  private static final Cleaner CLEANER = Cleaner.create(new ThreadFactoryBuilder()
      .setDaemon(true).setNameFormat("mpcache-client-cleaner").build());

  /** One open stream's way to let its readers go; runs at most once. */
  private final class Registration implements Runnable {
    private final Runnable release;

    Registration(Runnable release) {
      this.release = release;
    }

    @Override
    public void run() {
      if (open.remove(this)) {
        release.run();
      }
    }
  }

  private final Set<Registration> open = ConcurrentHashMap.newKeySet();

  /**
   * Registers {@code stream}, whose readers {@code release} lets go; {@code release} must not
   * reach the stream, or the stream would never be collected. The returned cleanable runs it
   * when the stream closes, unless the stream was collected or the FileSystem closed first.
   */
  Cleaner.Cleanable register(Object stream, Runnable release) {
    Registration r = new Registration(release);
    open.add(r);
    return CLEANER.register(stream, r);
  }

  /** How many registered streams have not let their readers go yet. */
  int size() {
    return open.size();
  }

  /** Lets go of the readers of every stream still open: the FileSystem closes. */
  @Override
  public void close() {
    for (Registration r : open) {
      r.run();
    }
  }
}
