package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PolicyParametersTest {

  @Test
  void defaults_matchDocumentedValues() {
    PolicyParameters p = PolicyParameters.defaults();
    assertEquals(0.001, p.fullBonus());
    assertEquals(1024, p.auxiliaryCacheDatasets());
    assertEquals(0, p.auxiliaryMaxAgeMillis());
    assertEquals(1000, p.frequencyHalfLifeAccesses());
  }

  @Test
  void toBuilder_roundTrips() {
    PolicyParameters p = PolicyParameters.builder().fullBonus(3).auxiliaryCacheDatasets(7)
        .auxiliaryMaxAgeMillis(9).frequencyHalfLifeAccesses(11).build();
    assertEquals(p, p.toBuilder().build());
    assertEquals(p.hashCode(), p.toBuilder().build().hashCode());
  }

  @Test
  void build_negativeFullBonus_namesParameter() {
    assertMessage("fullBonus", PolicyParameters.builder().fullBonus(-1));
    assertMessage("fullBonus", PolicyParameters.builder().fullBonus(Double.NaN));
  }

  @Test
  void build_zeroAuxiliaryCapacity_namesParameter() {
    assertMessage("auxiliaryCacheDatasets", PolicyParameters.builder().auxiliaryCacheDatasets(0));
  }

  @Test
  void build_negativeMaxAge_namesParameter() {
    assertMessage("auxiliaryMaxAgeMillis", PolicyParameters.builder().auxiliaryMaxAgeMillis(-5));
  }

  @Test
  void build_zeroHalfLife_namesParameter() {
    assertMessage("frequencyHalfLifeAccesses",
        PolicyParameters.builder().frequencyHalfLifeAccesses(0));
  }

  private static void assertMessage(String parameter, PolicyParameters.Builder b) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().startsWith(parameter + " must"), e.getMessage());
  }
}
