package org.mpcache.master.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DynamicSpaceManagerTest {
  private static final long GIB = 1L << 30;

  @TempDir
  Path dir;

  @Test
  void save_thenOpen_restoresHistory() throws Exception {
    Path file = dir.resolve("space-history");
    DynamicSpaceManager m = DynamicSpaceManager.open(file, 0.25);
    m.record("tera\tsort\\x", 3 * GIB, 2 * GIB);
    m.record("grep", 40 * GIB, 1);
    m.save();
    DynamicSpaceManager reopened = DynamicSpaceManager.open(file, 0.25);
    assertEquals(2, reopened.size());
    assertEquals(m.predict("tera\tsort\\x", 3 * GIB, 80 * GIB),
        reopened.predict("tera\tsort\\x", 3 * GIB, 80 * GIB));
    assertEquals(SpaceSplit.Basis.SAME_BUCKET, reopened.predict("grep", 40 * GIB, GIB).basis());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(file), files.toList()); // no temporary file left behind
    }
  }

  @Test
  void save_inANewDirectory_bothAreTheOwnersOnly() throws Exception {
    Path file = dir.resolve("new").resolve("space-history");
    DynamicSpaceManager m = DynamicSpaceManager.open(file, 0.25);
    m.record("sort", GIB, GIB / 4);
    m.save();
    assertEquals("rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void open_missingFile_startsEmpty() throws Exception {
    assertEquals(0, DynamicSpaceManager.open(dir.resolve("none"), 0.1).size());
  }

  @Test
  void open_corruptLine_startsEmptyAndMovesFileAside() throws Exception {
    Path file = dir.resolve("space-history");
    Files.writeString(file,
        SpaceHistoryFile.HEADER + "\nsort\t4\t1\t1\t1\t1\nsort\t5\tmany\t1\t1\t1\n",
        StandardCharsets.UTF_8);
    DynamicSpaceManager m = DynamicSpaceManager.open(file, 0.1);
    assertEquals(0, m.size());
    assertFalse(Files.exists(file));
    assertTrue(Files.exists(dir.resolve("space-history.corrupt")));
  }

  @Test
  void load_corruptLine_errorNamesFileAndLine() throws Exception {
    Path file = dir.resolve("h");
    Files.writeString(file, SpaceHistoryFile.HEADER + "\nsort\t4\t1\t1\t1\t1\nsort\t5\t1\t1\n",
        StandardCharsets.UTF_8);
    SpaceHistoryFile.FormatException e = assertThrows(SpaceHistoryFile.FormatException.class,
        () -> SpaceHistoryFile.load(file, new SpaceHistory(0)));
    assertTrue(e.getMessage().startsWith(file + ":3: "), e.getMessage());
  }

  @Test
  void load_wrongVersion_errorNamesLineOne() throws Exception {
    Path file = dir.resolve("h");
    Files.writeString(file, "mpcache-space-history 2\n", StandardCharsets.UTF_8);
    SpaceHistoryFile.FormatException e = assertThrows(SpaceHistoryFile.FormatException.class,
        () -> SpaceHistoryFile.load(file, new SpaceHistory(0)));
    assertTrue(e.getMessage().startsWith(file + ":1: "), e.getMessage());
  }
}
