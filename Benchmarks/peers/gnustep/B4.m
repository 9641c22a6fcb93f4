/* B4: key-path observation: a Person observed on "account.balance";
 * 100,000 iterations each swap person.account between two accounts and set
 * the current account's balance (2 notifications per iteration). */
#import "common.h"

@interface Account : NSObject
{
  long balance;
}
@property (nonatomic) long balance;
@end
@implementation Account
@synthesize balance;
@end

@interface Person : NSObject
{
  Account *account;
}
@property (nonatomic, retain) Account *account;
@end
@implementation Person
@synthesize account;
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 100000;
  Account *a1 = [Account new];
  Account *a2 = [Account new];
  Person *person = [Person new];
  person.account = a1;
  Watcher *watcher = [Watcher new];
  [person addObserver: watcher forKeyPath: @"account.balance"
              options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
              context: NULL];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (long i = 0; i < n; i++)
    {
      if (i % 2 == 0)
        person.account = a2;
      else
        person.account = a1;
      person.account.balance = i;
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  [pool drain];
  [person removeObserver: watcher forKeyPath: @"account.balance"];
  report();
  [outer drain];
  return 0;
}
