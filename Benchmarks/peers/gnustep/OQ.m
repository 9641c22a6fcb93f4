/* OQ: n operations on an NSOperationQueue of at most 4 at once, each observed
 * on isFinished (new) by one observer that counts; the queue is waited for.
 * GCC's Objective-C has no blocks: each operation is an NSOperation subclass
 * whose main does nothing. */
#import "common.h"

static volatile long finished = 0;

@interface Work : NSOperation
@end
@implementation Work
- (void) main
{
}
@end

@interface FinishWatcher : NSObject
@end
@implementation FinishWatcher
- (void) observeValueForKeyPath: (NSString *)keyPath
                       ofObject: (id)object
                         change: (NSDictionary *)change
                        context: (void *)context
{
  if ([[change objectForKey: NSKeyValueChangeNewKey] boolValue])
    __sync_fetch_and_add(&finished, 1);
}
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 10000;
  NSOperationQueue *queue = [NSOperationQueue new];
  [queue setMaxConcurrentOperationCount: 4];
  FinishWatcher *watcher = [FinishWatcher new];
  NSMutableArray *operations = [NSMutableArray arrayWithCapacity: n];
  for (long i = 0; i < n; i++)
    {
      Work *work = [Work new];
      [work addObserver: watcher forKeyPath: @"isFinished"
                options: NSKeyValueObservingOptionNew context: NULL];
      [operations addObject: work];
      [work release];
    }
  [queue addOperations: operations waitUntilFinished: YES];
  for (long i = 0; i < n; i++)
    [[operations objectAtIndex: i] removeObserver: watcher forKeyPath: @"isFinished"];
  notifications = (unsigned long)finished;
  report();
  [outer drain];
  return 0;
}
