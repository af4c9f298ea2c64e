package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PlacementIndex;

/**
 * The master selects its cache policy by the name in {@code mpcache.master.policy}, and reads
 * its write budget from {@code mpcache.master.admission.write.budget}.
 */
class MpCacheMasterPolicyTest {

  @Test
  void createPolicy_defaultIsMpCache() {
    assertEquals(CachePolicies.MPCACHE,
        new MpCacheMaster().createPolicy(new Configuration(false), new PlacementIndex()).name());
  }

  @Test
  void createPolicy_everyNameSelectsThatPolicy() {
    for (String name : CachePolicies.names()) {
      Configuration conf = new Configuration(false);
      conf.set(MasterConfigKeys.POLICY_KEY, " " + name + " ");
      assertEquals(name, new MpCacheMaster().createPolicy(conf, new PlacementIndex()).name());
    }
  }

  @Test
  void createPolicy_badValuesNameTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(MasterConfigKeys.POLICY_KEY, "fifo");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MpCacheMaster().createPolicy(conf, new PlacementIndex()));
    assertTrue(e.getMessage().contains(MasterConfigKeys.POLICY_KEY + "=fifo")
        && e.getMessage().contains("life"), e.getMessage());

    Configuration bonus = new Configuration(false);
    bonus.set(MasterConfigKeys.POLICY_FULL_BONUS_KEY, "-1");
    e = assertThrows(IllegalArgumentException.class,
        () -> new MpCacheMaster().createPolicy(bonus, new PlacementIndex()));
    assertTrue(e.getMessage().contains(MasterConfigKeys.POLICY_FULL_BONUS_KEY + "=-1.0"),
        e.getMessage());

    Configuration exponent = new Configuration(false);
    exponent.set(MasterConfigKeys.POLICY_SIZE_EXPONENT_KEY, "2");
    e = assertThrows(IllegalArgumentException.class,
        () -> new MpCacheMaster().createPolicy(exponent, new PlacementIndex()));
    assertTrue(e.getMessage().contains(MasterConfigKeys.POLICY_SIZE_EXPONENT_KEY + "=2.0"),
        e.getMessage());
  }

  @Test
  void createPolicy_sizeExponentInRangeIsAccepted() {
    Configuration conf = new Configuration(false);
    conf.set(MasterConfigKeys.POLICY_SIZE_EXPONENT_KEY, "0.5");
    assertEquals(CachePolicies.MPCACHE,
        new MpCacheMaster().createPolicy(conf, new PlacementIndex()).name());
  }

  @Test
  void writeBudget_acceptsSizesAndRefusesNegativeNamingTheKey() {
    Configuration conf = new Configuration(false);
    assertEquals(0, MpCacheMaster.writeBudget(conf));
    conf.set(MasterConfigKeys.ADMISSION_WRITE_BUDGET_KEY, "2g");
    assertEquals(2L << 30, MpCacheMaster.writeBudget(conf));
    conf.set(MasterConfigKeys.ADMISSION_WRITE_BUDGET_KEY, "-1");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MpCacheMaster.writeBudget(conf));
    assertTrue(e.getMessage().contains(MasterConfigKeys.ADMISSION_WRITE_BUDGET_KEY),
        e.getMessage());
  }
}
