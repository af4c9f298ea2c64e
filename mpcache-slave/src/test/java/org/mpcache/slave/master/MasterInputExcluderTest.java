package org.mpcache.slave.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;

class MasterInputExcluderTest {
  private static final BlockKey A1 = new BlockKey("BP-1", 1, 1);
  private static final BlockKey A2 = new BlockKey("BP-1", 2, 1);
  private static final BlockKey B1 = new BlockKey("BP-1", 3, 1);
  private static final Map<BlockKey, String> DIRS = Map.of(A1, "/ssd1", A2, "/ssd2", B1, "/ssd1");

  private final List<Long> asked = new ArrayList<>();

  private MasterInputExcluder excluder(List<List<BlockKey>> answers) {
    return new MasterInputExcluder(bytes -> {
      asked.add(bytes);
      return asked.size() <= answers.size() ? answers.get(asked.size() - 1) : List.of();
    }, DIRS::get, b -> 100, 2);
  }

  @Test
  void planExclusion_masterFreesEnoughInTheDir_asksOnce() {
    assertEquals(List.of(A1, A2),
        excluder(List.of(List.of(A1, A2))).planExclusion("/ssd1", 100).blocks());
    assertEquals(List.of(100L), asked);
  }

  @Test
  void planExclusion_blocksInOtherDirs_asksAgainForTheRest() {
    assertEquals(List.of(A1, A2, B1),
        excluder(List.of(List.of(A1, A2), List.of(B1))).planExclusion("/ssd1", 150).blocks());
    assertEquals(List.of(150L, 50L), asked, "the second request is for what the dir still needs");
  }

  @Test
  void planExclusion_atMostOneRequestPerDir() {
    excluder(List.of(List.of(A2), List.of(A2), List.of(A2))).planExclusion("/ssd1", 100);
    assertEquals(2, asked.size());
  }

  @Test
  void planExclusion_masterUnreachable_excludesNothing() {
    MasterInputExcluder e = new MasterInputExcluder(bytes -> {
      throw new IOException("down");
    }, DIRS::get, b -> 100, 1);
    assertEquals(List.of(), e.planExclusion("/ssd1", 100).blocks());
  }
}
