package org.mpcache.yarn;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The raw local file system through which a task writes its localized files on the SSD, so that a
 * write meeting {@code No space left on device} there moves the file to an HDD local dir within the
 * same attempt instead of failing it. The free-space check before a grant
 * ({@link LocalizedSpaceClient#place}) makes this rare; it happens when other processes fill the
 * SSD between the check and the write.
 *
 * <p>A file created under one of the attempt's SSD application dirs is written through a stream
 * that counts the bytes the SSD accepted. When a write fails with ENOSPC, the stream copies those
 * bytes back from the partial SSD file to the same relative path under an HDD local dir (chosen by
 * {@link SsdLocalDirAllocator#hddPathForWrite}), deletes the partial file, redoes the failed write
 * there and goes on writing to the HDD; the writer never notices. Nothing has to be rewritten by
 * the caller: the bytes already written are read back from the SSD, the rest are still in hand.
 * Afterwards this file system resolves the file's SSD path to its HDD copy ({@link #pathToFile}),
 * so reads, status, renames and deletes through it find the file; Hadoop's own lookups by name
 * (a map's spills, {@code getSpillFile}) search every local dir and find it too. {@code onMoved}
 * hears of each move, for files that others will look for beside the moved one.
 *
 * <p>Where this cannot help: files written through another file system (the reduce's fetched map
 * outputs, which Hadoop's {@code OnDiskMapOutput} writes through the JVM's own local file system
 * while it consumes the network stream) fail on ENOSPC as before, failing the reduce attempt; the
 * next attempt's files are placed after a fresh free-space check. If the partial file
 * cannot be read back, the original ENOSPC is thrown. The slave's grant for a moved file is kept
 * until the attempt's container ends, as for any granted file that did not reach the SSD: the SSD
 * is evidently fuller than the slave's accounting, and giving the room back early would only let
 * the next grant meet the same full disk.
 *
 * <p>Thread-safe: each stream is used by one writer, as any output stream, and the map of moved
 * files is concurrent.
 */
final class RelocatingLocalFileSystem extends RawLocalFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(RelocatingLocalFileSystem.class);
  private static final String NO_SPACE = "No space left on device";

  private final SsdLocalDirAllocator allocator;
  private final Configuration conf;
  private final BiConsumer<Path, Path> onMoved;
  /** SSD path (no scheme) to the HDD file now holding its bytes. */
  private final Map<String, File> moved = new ConcurrentHashMap<>();

  /**
   * @param conf the task's configuration; holds the HDD local dirs
   * @param onMoved told (SSD path, HDD path) after a file moved, on the writer's thread
   */
  RelocatingLocalFileSystem(SsdLocalDirAllocator allocator, Configuration conf,
      BiConsumer<Path, Path> onMoved) throws IOException {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.conf = Objects.requireNonNull(conf, "conf");
    this.onMoved = Objects.requireNonNull(onMoved, "onMoved");
    initialize(URI.create("file:///"), conf);
  }

  @Override
  public File pathToFile(Path path) {
    File hdd = moved.get(path.toUri().getPath());
    return hdd != null ? hdd : super.pathToFile(path);
  }

  @Override
  protected OutputStream createOutputStreamWithMode(Path f, boolean append,
      FsPermission permission) throws IOException {
    OutputStream out = super.createOutputStreamWithMode(f, append, permission);
    String relative = append || moved.containsKey(f.toUri().getPath()) ? null
        : allocator.client().relativeToSsd(f);
    return relative == null ? out : new MovableStream(f, relative, permission, out);
  }

  @Override
  public boolean delete(Path p, boolean recursive) throws IOException {
    boolean deleted = super.delete(p, recursive);
    if (deleted) {
      allocator.client().deleted(p);
    }
    return deleted;
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    boolean renamed = super.rename(src, dst);
    if (renamed) {
      allocator.client().renamed(src, dst);
    }
    return renamed;
  }

  /** Whether {@code t} or one of its causes says the device is full. */
  static boolean isNoSpace(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && c.getMessage().contains(NO_SPACE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A stream to a new file on the SSD that moves the file to an HDD dir on ENOSPC, or when the
   * slave refuses it the room to grow ({@link LocalizedSpaceClient#grow}, asked before each write
   * past its grant). Hadoop's local stream reports a failed write as an {@link FSError}, so both
   * that and a plain IOException are recognized.
   */
  private final class MovableStream extends OutputStream {
    private final Path ssdPath;
    private final String relative;
    private final FsPermission permission;
    private OutputStream out;
    private long written;
    private boolean onHdd;

    MovableStream(Path ssdPath, String relative, FsPermission permission, OutputStream out) {
      this.ssdPath = ssdPath;
      this.relative = relative;
      this.permission = permission;
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (!onHdd && !allocator.client().grow(ssdPath, written + len)) {
        refused(len);
      }
      try {
        out.write(b, off, len);
      } catch (IOException | FSError e) {
        if (onHdd || !isNoSpace(e)) {
          throw e;
        }
        moveToHdd(e, len, false);
        out.write(b, off, len);
      }
      written += len;
    }

    /**
     * The slave refused the file room to grow: it moves to an HDD dir and its grant goes back. If
     * it cannot move, it stays on the SSD beyond its grant: a task never fails for the cache.
     */
    private void refused(long pending) throws IOException {
      try {
        moveToHdd(new IOException("the slave refused " + ssdPath + " room past " + written
            + " bytes"), pending, true);
      } catch (IOException | FSError e) {
        LOG.warn("Could not move {} to an HDD dir when the slave refused it more room; it stays on"
            + " the SSD beyond its grant: {}", ssdPath, e.toString());
        out = RelocatingLocalFileSystem.super.createOutputStreamWithMode(ssdPath, true,
            permission);
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
      if (!onHdd) {
        allocator.client().written(ssdPath, written);
      }
    }

    /**
     * Copies the {@link #written} bytes the SSD accepted to an HDD dir and continues there; on any
     * failure {@code noSpace} (the SSD's error, or the refusal) is thrown, with the failure to move
     * attached. A {@code refused} file's grant goes back to the slave; a full SSD's file keeps it
     * until the container ends, the SSD being evidently fuller than the slave's accounting.
     */
    private void moveToHdd(Throwable noSpace, long pending, boolean refused) throws IOException {
      File ssdFile = RelocatingLocalFileSystem.super.pathToFile(ssdPath);
      IOUtils.closeStream(out);
      Path hddPath = null;
      OutputStream hdd = null;
      try {
        hddPath = allocator.hddPathForWrite(relative, written + pending, conf);
        File hddFile = RelocatingLocalFileSystem.super.pathToFile(hddPath);
        if (!hddFile.getParentFile().isDirectory() && !hddFile.getParentFile().mkdirs()) {
          throw new IOException("cannot create " + hddFile.getParent());
        }
        hdd = RelocatingLocalFileSystem.super.createOutputStreamWithMode(hddPath, false,
            permission);
        try (InputStream partial = new FileInputStream(ssdFile)) {
          IOUtils.copyBytes(partial, hdd, written, false);
        }
        Files.deleteIfExists(ssdFile.toPath());
        moved.put(ssdPath.toUri().getPath(), hddFile);
      } catch (IOException | RuntimeException | FSError e) {
        IOUtils.closeStream(hdd);
        if (hddPath != null) {
          RelocatingLocalFileSystem.super.pathToFile(hddPath).delete();
        }
        noSpace.addSuppressed(e);
        if (noSpace instanceof IOException io) {
          throw io;
        }
        throw (FSError) noSpace;
      }
      out = hdd;
      onHdd = true;
      if (refused) {
        allocator.client().deleted(ssdPath);
        LOG.info("No more SSD room for {} ({} bytes written): moved to {}", ssdPath, written,
            hddPath);
      } else {
        allocator.client().leftSsd(ssdPath);
        LOG.warn("SSD full while writing {} ({} bytes written): moved to {}", ssdPath, written,
            hddPath);
      }
      onMoved.accept(ssdPath, hddPath);
    }
  }
}
