package org.mpcache.master.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.DatasetsResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveBlocksProto;

/** The CLI's one table formatter, its units, and the JSON it prints for protobuf answers. */
class FormattingTest {

  @Test
  void table_alignsTextLeftAndNumbersRight() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    new Table("NAME", ">COUNT").row("a", 5).row("longer", 1234)
        .print(new PrintStream(b, true, StandardCharsets.UTF_8));
    assertEquals("NAME    COUNT\na           5\nlonger   1234\n",
        b.toString(StandardCharsets.UTF_8));
  }

  @Test
  void units_bytesAndAges() {
    assertEquals("512 B", Table.bytes(512));
    assertEquals("1.5 KiB", Table.bytes(1536));
    assertEquals("4.0 MiB", Table.bytes(4L << 20));
    assertEquals("0.4s", Table.age(400));
    assertEquals("12s", Table.age(12_300));
    assertEquals("3m 05s", Table.age(185_000));
    assertEquals("2h 01m", Table.age(7_260_000));
  }

  @Test
  void json_usesProtoFieldNamesAndLeavesUnsetOptionalsOut() throws Exception {
    DatasetsResponseProto r = DatasetsResponseProto.newBuilder().addDatasets(
        DatasetStatusProto.newBuilder().setDatasetId("hdfs://nn/in").setSizeBlocks(-1)
            .setCachedBlocks(2).setCachedBytes(1L << 40).setFull(false).setFrequency(0.5)
            .setLastAccessMs(7).setInAuxiliaryCache(true)
            .addSlaves(SlaveBlocksProto.newBuilder().setSlaveId("h:1").setBlocks(2)
                .setBytes(3))).build();
    JsonNode d = new ObjectMapper().readTree(ProtoJson.print(ProtoJson.toJson(r)))
        .get("datasets").get(0);
    assertEquals("hdfs://nn/in", d.get("datasetId").asText());
    assertEquals(4294967295L, d.get("sizeBlocks").asLong(), "uint32 printed unsigned");
    assertEquals(1L << 40, d.get("cachedBytes").asLong());
    assertEquals(0.5, d.get("frequency").asDouble());
    assertEquals("h:1", d.get("slaves").get(0).get("slaveId").asText());
    assertFalse(d.has("priority"), "unset optional field left out");
    assertFalse(d.has("lastVerdict"));
  }
}
