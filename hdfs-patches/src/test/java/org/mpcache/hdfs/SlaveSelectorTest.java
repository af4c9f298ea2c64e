package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;

class SlaveSelectorTest {
  private static SlaveInfoProto slave(String id, String host, String dn) {
    SlaveInfoProto.Builder b = SlaveInfoProto.newBuilder().setSlaveId(id).setHost(host)
        .setClientPort(1);
    if (dn != null) {
      b.setDatanodeAddress(dn);
    }
    return b.build();
  }

  private static SlaveSelector.Replica replica(String host, String ip, int port) {
    return new SlaveSelector.Replica(ip + ":" + port, host + ":" + port, host, ip);
  }

  private static String choose(List<SlaveInfoProto> slaves, List<SlaveSelector.Replica> replicas,
      Set<String> local, long block, Set<String> excluded) {
    return SlaveSelector.choose(slaves, replicas, local, block, excluded)
        .map(SlaveInfoProto::getSlaveId).orElse("none");
  }

  @Test
  void choose_prefersTheSlaveBesideALocalReplica() {
    List<SlaveInfoProto> slaves = List.of(slave("a", "ha", null), slave("b", "hb", null),
        slave("c", "hc", null));
    List<SlaveSelector.Replica> replicas = List.of(replica("hb", "10.0.0.2", 9866),
        replica("hc", "10.0.0.3", 9866));
    for (long block = 0; block < 50; block++) {
      assertEquals("c", choose(slaves, replicas, Set.of("hc"), block, Set.of()));
    }
  }

  @Test
  void choose_matchesDeclaredDatanodeAddressOverHost() {
    List<SlaveInfoProto> slaves = List.of(slave("s1", "127.0.0.1", "127.0.0.1:1001"),
        slave("s2", "127.0.0.1", "127.0.0.1:1002"));
    List<SlaveSelector.Replica> replicas = List.of(replica("localhost", "127.0.0.1", 1002));
    assertEquals("s2", choose(slaves, replicas, Set.of("127.0.0.1"), 7, Set.of()));
  }

  @Test
  void choose_isTheSameForEveryReaderAndSpreadsBlocks() {
    List<SlaveInfoProto> slaves = List.of(slave("s1", "h", "h:1"), slave("s2", "h", "h:2"));
    List<SlaveSelector.Replica> replicas = List.of(replica("h", "1.1.1.1", 1),
        replica("h", "1.1.1.1", 2));
    Map<String, Integer> spread = new HashMap<>();
    for (long block = 0; block < 1000; block++) {
      String first = choose(slaves, replicas, Set.of("h"), block, Set.of());
      assertEquals(first, choose(List.of(slaves.get(1), slaves.get(0)), replicas, Set.of("h"),
          block, Set.of()), "order of the slave list must not matter");
      spread.merge(first, 1, Integer::sum);
    }
    assertTrue(spread.get("s1") > 400 && spread.get("s2") > 400, "blocks spread: " + spread);
  }

  @Test
  void choose_skipsExcludedSlavesAndFallsBackToALocalOne() {
    List<SlaveInfoProto> slaves = List.of(slave("beside", "hb", null), slave("mine", "hm", null));
    List<SlaveSelector.Replica> replicas = List.of(replica("hb", "10.0.0.2", 9866));
    assertEquals("beside", choose(slaves, replicas, Set.of("hm"), 1, Set.of()));
    assertEquals("mine", choose(slaves, replicas, Set.of("hm"), 1, Set.of("beside")));
    assertEquals("none", choose(slaves, replicas, Set.of("elsewhere"), 1, Set.of("beside")));
  }

  @Test
  void choose_noSlavesNoChoice() {
    assertEquals(Optional.empty(), SlaveSelector.choose(List.of(), List.of(), Set.of(), 1,
        Set.of()));
  }
}
