#!/usr/bin/env swift
import Foundation
import Dispatch
import class Foundation.NSObject

print("imports")
