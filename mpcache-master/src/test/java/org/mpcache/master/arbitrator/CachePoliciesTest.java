package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CachePoliciesTest {

  @Test
  void create_everyName_returnsPolicyOfThatName() {
    for (String name : CachePolicies.names()) {
      assertEquals(name, CachePolicies.create(name, PolicyParameters.defaults()).name());
    }
  }

  @Test
  void names_defaultFirst() {
    assertEquals(List.of("mpcache", "gdsf", "life", "lfu-f", "lru", "lfu", "none"),
        CachePolicies.names());
    assertEquals("mpcache", CachePolicies.DEFAULT);
  }

  @Test
  void create_unknownName_listsValidNames() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CachePolicies.create("arc", PolicyParameters.defaults()));
    assertTrue(e.getMessage().contains("'arc'"), e.getMessage());
    assertTrue(e.getMessage().contains("mpcache, gdsf, life, lfu-f, lru, lfu, none"),
        e.getMessage());
  }

  @Test
  void create_everyCall_returnsIndependentPolicy() {
    CachePolicy a = CachePolicies.create("mpcache", PolicyParameters.defaults());
    CachePolicy b = CachePolicies.create("mpcache", PolicyParameters.defaults());
    a.onMiss(MpCachePolicyTest.access("s1", "x", 0, 1, "j1"), 1);
    assertEquals(1, ((MpCachePolicy) a).cachedBlocks());
    assertEquals(0, ((MpCachePolicy) b).cachedBlocks());
  }
}
