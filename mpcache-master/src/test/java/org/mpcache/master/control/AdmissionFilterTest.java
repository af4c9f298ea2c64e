package org.mpcache.master.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.CacheDecision.Reason;

/** The glob semantics of the admission filters, as docs/policy.md states them. */
class AdmissionFilterTest {

  @Test
  void refusal_noFilters_admitsEverything() {
    assertNull(AdmissionFilter.ALL.refusal("hdfs://nn:8020/any/where"));
  }

  @Test
  void refusal_starCrossesSlashes_doubleStarTheSame() {
    AdmissionFilter one = new AdmissionFilter(List.of(), List.of("/staging/*"));
    AdmissionFilter two = new AdmissionFilter(List.of(), List.of("/staging/**"));
    for (AdmissionFilter f : List.of(one, two)) {
      assertEquals(Reason.REJECTED_EXCLUDED, f.refusal("/staging/a/b/c"));
      assertNull(f.refusal("/stagingx/a"));
    }
  }

  @Test
  void refusal_globMatchingADirectory_coversWhatIsUnderIt() {
    AdmissionFilter f = new AdmissionFilter(List.of("/warehouse/{sales,ads}"), List.of());
    assertNull(f.refusal("hdfs://nn:8020/warehouse/sales/2024/part-0"));
    assertNull(f.refusal("/warehouse/ads"));
    assertEquals(Reason.REJECTED_NOT_INCLUDED, f.refusal("/warehouse/hr/t"));
    assertEquals(Reason.REJECTED_NOT_INCLUDED, f.refusal("/warehouse"));
  }

  @Test
  void refusal_excludeWinsOverInclude() {
    AdmissionFilter f = new AdmissionFilter(List.of("/warehouse"), List.of("/warehouse/tmp?"));
    assertEquals(Reason.REJECTED_EXCLUDED, f.refusal("/warehouse/tmp1/x"));
    assertNull(f.refusal("/warehouse/tmp12/x"));
  }

  @Test
  void refusal_severalInputs_eachMustPass() {
    AdmissionFilter f = new AdmissionFilter(List.of("/a"), List.of("/a/no"));
    assertNull(f.refusal("/a/x,/a/y"));
    assertEquals(Reason.REJECTED_NOT_INCLUDED, f.refusal("/a/x,/b/y"));
    assertEquals(Reason.REJECTED_EXCLUDED, f.refusal("/a/x,/a/no/y"));
  }

  @Test
  void new_relativeOrInvalidGlob_refusedNamingIt() {
    IllegalArgumentException rel = assertThrows(IllegalArgumentException.class,
        () -> new AdmissionFilter(List.of("data/*"), List.of()));
    assertTrue(rel.getMessage().contains("'data/*'"), rel.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> new AdmissionFilter(List.of(), List.of("/a/{b")));
    assertTrue(bad.getMessage().contains("'/a/{b'"), bad.getMessage());
  }
}
