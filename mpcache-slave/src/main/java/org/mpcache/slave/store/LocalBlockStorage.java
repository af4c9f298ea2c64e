package org.mpcache.slave.store;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.mpcache.common.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link BlockStorage} on the local file system, in {@link BlockFile#path()}'s layout.
 * Directories are created {@code rwx------}: only the slave's user can reach a cached file by its
 * path. Checksum files are {@code rw-------}; data files are {@code rw-r--r--}, because a client
 * given a block's open descriptor by the slave reopens it through {@code /proc/self/fd} and the
 * kernel checks the file's mode for that, not the directories' (docs/security.md): no one gets
 * to a block's bytes but through the slave, which hands a descriptor only to an authorized reader.
 *
 * <p>Stateless and thread-safe.
 */
final class LocalBlockStorage implements BlockStorage {
  static final LocalBlockStorage INSTANCE = new LocalBlockStorage();

  private static final Logger LOG = LoggerFactory.getLogger(LocalBlockStorage.class);
  private static final String DIR_MODE = "rwx------";
  private static final FileAttribute<Set<PosixFilePermission>> DIR_PERMS =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(DIR_MODE));
  private static final FileAttribute<Set<PosixFilePermission>> FILE_PERMS =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final String DATA_MODE = "rw-r--r--";
  private static final FileAttribute<Set<PosixFilePermission>> DATA_FILE_PERMS =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(DATA_MODE));

  private LocalBlockStorage() {
  }

  private static void createPrivateDirs(Path d) throws IOException {
    Files.createDirectories(d, DIR_PERMS);
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString(DIR_MODE));
  }

  @Override
  public void prepare(Path dir) throws IOException {
    createPrivateDirs(dir.resolve("current"));
    Path tmp = dir.resolve("tmp");
    createPrivateDirs(tmp);
    try (DirectoryStream<Path> s = Files.newDirectoryStream(tmp)) {
      for (Path p : s) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Override
  public List<BlockKey> list(Path dir) throws IOException {
    List<BlockKey> out = new ArrayList<>();
    try (DirectoryStream<Path> pools = Files.newDirectoryStream(dir.resolve("current"))) {
      for (Path pool : pools) {
        if (!Files.isDirectory(pool)) {
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(pool, "blk_*")) {
          for (Path f : files) {
            String name = f.getFileName().toString();
            if (name.endsWith(BlockFile.CHECKSUM_SUFFIX)) {
              continue;
            }
            try {
              out.add(parse(pool.getFileName().toString(), name));
            } catch (IllegalArgumentException e) {
              LOG.warn("Deleting {}: {}", f, e.getMessage());
              Files.deleteIfExists(f);
              Files.deleteIfExists(f.resolveSibling(name + BlockFile.CHECKSUM_SUFFIX));
            }
          }
        }
      }
    }
    return out;
  }

  private static BlockKey parse(String pool, String name) {
    String[] parts = name.split("_");
    if (parts.length != 3 || !parts[0].equals("blk")) {
      throw new IllegalArgumentException("not a block file name: " + name);
    }
    return new BlockKey(pool, Long.parseLong(parts[1]), Long.parseLong(parts[2]));
  }

  @Override
  public long usableBytes(Path dir) throws IOException {
    return Files.getFileStore(dir).getUsableSpace();
  }

  @Override
  public long size(BlockFile file) throws IOException {
    return Files.size(file.path());
  }

  @Override
  public int read(BlockFile file, long position, ByteBuffer dst) throws IOException {
    int start = dst.position();
    try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
      while (dst.hasRemaining()) {
        if (ch.read(dst, position + dst.position() - start) < 0) {
          break;
        }
      }
    }
    return dst.position() - start;
  }

  @Override
  public FileInputStream open(BlockFile file) throws IOException {
    try {
      return new FileInputStream(file.path().toFile());
    } catch (FileNotFoundException e) {
      if (Files.notExists(file.path())) {
        throw new NoSuchFileException(file.path().toString());
      }
      // What the open failed with otherwise (EIO, EACCES, EMFILE) is in the message.
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public void write(BlockFile file, long position, ByteBuffer src, boolean create)
      throws IOException {
    boolean data = file.kind() == BlockFile.Kind.FILL_DATA;
    try (FileChannel ch = create
        ? FileChannel.open(file.path(), EnumSet.of(StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE), data ? DATA_FILE_PERMS : FILE_PERMS)
        : FileChannel.open(file.path(), StandardOpenOption.WRITE)) {
      if (create && data) {
        // Whatever the slave's umask: readers reopening a passed descriptor need the read bit.
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString(DATA_MODE));
      }
      long at = position;
      while (src.hasRemaining()) {
        at += ch.write(src, at);
      }
    }
  }

  @Override
  public void sync(BlockFile file) throws IOException {
    try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  @Override
  public void move(BlockFile from, BlockFile to) throws IOException {
    createPrivateDirs(to.path().getParent());
    Files.move(from.path(), to.path(), StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public boolean delete(BlockFile file) throws IOException {
    return Files.deleteIfExists(file.path());
  }
}
