package org.mpcache.slave.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.mpcache.common.MpCacheConfigKeys;

/**
 * Exclusive locks on a slave's SSD directories, one {@value #LOCK_FILE} file each, as a DataNode
 * locks its storage directories: a second slave configured with a directory another one uses
 * fails to start instead of deleting the first one's fills and blocks. The locks are OS file
 * locks, released when the slave stops or its process dies.
 *
 * <p>Not thread-safe: taken at service init, released at stop.
 */
public final class StorageDirLocks implements Closeable {
  /** The lock file in each directory. */
  public static final String LOCK_FILE = "in_use.lock";

  private final List<FileLock> locks = new ArrayList<>();

  private StorageDirLocks() {
  }

  /**
   * Locks every directory, creating it as needed.
   *
   * @throws IOException naming the directory and {@value MpCacheConfigKeys#SLAVE_CACHE_DIRS_KEY}
   *     when another slave holds one (nothing stays locked then)
   */
  public static StorageDirLocks lock(List<Path> dirs) throws IOException {
    StorageDirLocks all = new StorageDirLocks();
    try {
      for (Path d : dirs) {
        all.locks.add(lockOne(d));
      }
      return all;
    } catch (IOException | RuntimeException e) {
      all.close();
      throw e;
    }
  }

  private static FileLock lockOne(Path dir) throws IOException {
    Files.createDirectories(dir,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path file = dir.resolve(LOCK_FILE);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException sameJvm) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw new IOException("The SSD directory " + dir + " is in use by another mpCache slave ("
          + file + " is locked). Give each slave its own directories in "
          + MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY + ".");
    }
    return lock;
  }

  /** Releases every lock; idempotent. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (FileLock l : locks) {
      try {
        l.release();
        l.channel().close();
      } catch (IOException e) {
        first = first != null ? first : e;
      }
    }
    locks.clear();
    if (first != null) {
      throw first;
    }
  }
}
