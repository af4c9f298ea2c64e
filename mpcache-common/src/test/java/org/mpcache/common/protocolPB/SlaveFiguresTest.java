package org.mpcache.common.protocolPB;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.thirdparty.protobuf.Descriptors.FieldDescriptor;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.MpCacheProtos.SsdDirProto;

class SlaveFiguresTest {

  @Test
  void addCounters_sumsEveryField() {
    SlaveCountersProto.Builder one = SlaveCountersProto.newBuilder();
    for (FieldDescriptor f : SlaveCountersProto.getDescriptor().getFields()) {
      one.setField(f, (long) f.getNumber());
    }
    SlaveCountersProto.Builder total = SlaveFigures.zeroCounters();
    SlaveFigures.add(total, one.build());
    SlaveFigures.add(total, one.build());
    for (FieldDescriptor f : SlaveCountersProto.getDescriptor().getFields()) {
      assertEquals(2L * f.getNumber(), total.getField(f), f.getName());
    }
  }

  @Test
  void addSpace_sumsEveryFigure() {
    SpaceReportProto.Builder one = SpaceReportProto.newBuilder();
    for (FieldDescriptor f : SpaceReportProto.getDescriptor().getFields()) {
      if (!f.isRepeated()) {
        one.setField(f, (long) f.getNumber());
      }
    }
    one.addDirs(SsdDirProto.newBuilder().setDir("/ssd").setInService(true));
    SpaceReportProto.Builder total = SlaveFigures.zeroSpace();
    SlaveFigures.add(total, one.build());
    SlaveFigures.add(total, one.build());
    for (FieldDescriptor f : SpaceReportProto.getDescriptor().getFields()) {
      if (!f.isRepeated()) {
        assertEquals(2L * f.getNumber(), total.getField(f), f.getName());
      }
    }
    assertEquals(0, total.getDirsCount(), "a total names no slave's directories");
  }
}
