package org.mpcache.master.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes the master's state files (the checkpoint, the space history) so that only the master's
 * user can read them and a crash never loses a replaced version: directories it creates are
 * {@code rwx------} and files {@code rw-------}, as HDFS keeps the NameNode's storage directories
 * ({@code dfs.namenode.storage.dir.perm}, 700), since they name every user's datasets; a new
 * version is written to a temporary file, fsynced, renamed over the old one, and the directory
 * fsynced. A directory that already exists keeps its permissions, the operator's choice. On a file
 * system without POSIX permissions the platform's defaults apply. Stateless and thread-safe.
 */
public final class OwnerOnlyFiles {
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private OwnerOnlyFiles() {
  }

  /** Creates {@code dir} and its missing parents, each {@code rwx------}. */
  public static void createDirectories(Path dir) throws IOException {
    if (POSIX) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR));
    } else {
      Files.createDirectories(dir);
    }
  }

  /**
   * A new, empty {@code rw-------} file at {@code tmp} open for writing, in place of any file a
   * crash left there (whose permissions would otherwise stay); the caller closes it.
   */
  public static FileChannel createTemporary(Path tmp) throws IOException {
    Files.deleteIfExists(tmp);
    FileAttribute<?>[] attrs = POSIX
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new FileAttribute<?>[0];
    return FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        attrs);
  }

  /**
   * Makes {@code tmp} the new {@code file}: renames it over {@code file} atomically and fsyncs the
   * directory so that the rename survives a crash. The caller has written {@code tmp}, forced its
   * channel ({@link FileChannel#force}) and closed it.
   */
  public static void replace(Path tmp, Path file) throws IOException {
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(),
        StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
