import Foundation
import Combine

print("Combine is Apple's")
